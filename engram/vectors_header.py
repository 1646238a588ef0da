"""How a vectors file (graph/vector_format.py) announces itself: light enough for the client commands, which load
no graph driver, to tell it from an ingest file."""

from __future__ import annotations

import json
from pathlib import Path

HEADER_KEY = "engram_vectors_export"


def is_vectors_file(path: Path) -> bool:
    """Whether the file's first line is a vectors export's header."""
    with path.open("r", encoding="utf-8") as handle:
        first = handle.readline()
    try:
        row = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(row, dict) and HEADER_KEY in row
