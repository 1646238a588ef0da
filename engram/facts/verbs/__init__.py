"""The seed verbs of source roles (docs/supersession.md), one per line (`#` starts a comment)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def load_verbs(name: str) -> frozenset[str]:
    text = (Path(__file__).parent / f"{name}.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
