"""Input formats: the generic JSON/JSONL records and their validation (other formats are converted to them first)."""
