"""Periodic consolidation of a memory space: duplicates, conflicts, aliases, intents, associations, dimensions;
and user corrections (correction.py)."""
