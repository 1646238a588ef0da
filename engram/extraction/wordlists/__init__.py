"""Word lists used by the offline extractor, one word per line (`#` starts a comment)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engram.word_lists import read_word_list


@cache
def load_wordlist(name: str) -> frozenset[str]:
    return read_word_list(Path(__file__).parent / f"{name}.txt")
