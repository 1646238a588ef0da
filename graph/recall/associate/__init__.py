"""Proactive recall: memories worth surfacing for what the user just said (graph/recall/associate/engine.py)."""
