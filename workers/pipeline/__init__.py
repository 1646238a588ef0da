"""The ingest pipeline, one module per stage: standardize -> extract -> embed -> write -> consolidate."""
