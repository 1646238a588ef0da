"""Input formats: the generic JSON/JSONL records and importers that convert other formats into them."""
