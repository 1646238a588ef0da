"""Sentences of a text: where a statement starts and ends."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“A-Z0-9])")
# A period that ends an initial ("J.K. Rowling", "George R. R. Martin"; not "I") or a title before a name ("Dr. Seuss")
# ends no sentence.
_TITLES = "Mr|Mrs|Ms|Dr|Prof|St|Mt|Ft|Gen|Col|Lt|Capt|Sgt|Rev|Gov|Sen"
_ABBREVIATION = re.compile(rf"(?:^|[\s(\"'“.])(?:[A-HJ-Z]|{_TITLES})\.$")


def split_sentences(text: str) -> list[str]:
    text = text.strip()
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        if not _ABBREVIATION.search(text, 0, end.start()):
            sentences.append(text[start : end.start()])
            start = end.end()
    sentences.append(text[start:])
    return [s.strip() for s in sentences if s.strip()]
