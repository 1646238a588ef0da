"""Word lists kept as text files beside the code that reads them: one entry per line, `#` starts a comment."""

from __future__ import annotations

from pathlib import Path


def read_word_list(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
