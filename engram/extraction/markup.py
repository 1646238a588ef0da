"""Plain text from a chat's formatting: an assistant's answer arrives as Markdown ("1. **Cuff or roll**: Cuff the
hem ..."), and a statement drawn from it should read as a sentence ("Cuff or roll: Cuff the hem ..."), not carry
list numbers, asterisks and line breaks into the graph. The episode keeps its text as it was written."""

from __future__ import annotations

import re

_EMPHASIS = re.compile(
    r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__|(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"
)
# A list item's marker or a heading's hashes at the start of a line ("2. ", "- ", "* ", "### ").
_LINE_MARKER = re.compile(r"(?m)^[ \t]*(?:\d{1,3}[.)]|[*•+-]|#{1,6})[ \t]+")
_LINE_BREAKS = re.compile(r"[ \t]*\n\s*")


def plain(text: str) -> str:
    """`text` without Markdown emphasis, list markers, heading marks and line breaks."""
    text = _LINE_MARKER.sub("", text)
    text = _EMPHASIS.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    return _LINE_BREAKS.sub(" ", text).strip()
