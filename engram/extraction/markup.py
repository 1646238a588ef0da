"""Plain text from a chat's formatting: an assistant's answer arrives as Markdown ("1. **Cuff or roll**: Cuff the
hem ..."), and a statement drawn from it should read as a sentence ("Cuff or roll: Cuff the hem ..."), not carry
list numbers, asterisks and line breaks into the graph. The episode keeps its text as it was written."""

from __future__ import annotations

import re

_EMPHASIS = re.compile(
    r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__|(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"
)
# A list item's marker or a heading's hashes at the start of a line ("2. ", "3) ", "- ", "* ", "### ").
_LINE_MARKER = re.compile(r"(?m)^[ \t]*(?:\d{1,3}[.)]|[*•+-]|#{1,6})[ \t]+")
# Of those, the ones a sentence that begins mid-line may still start with: a list run into one line ("... 1. rice.
# 2. kung pao chicken: ...", "2) North Face - ..."); "45) that introduced ..." is rather the end of a bracket the
# split cut ("(c. 45)").
_MID_LINE_MARKER = re.compile(r"[ \t]*(?:\d{1,3}\.|\d{1,3}\)(?=[ \t]+[A-Z])|[*•+-]|#{1,6})[ \t]+")
_LINE_BREAKS = re.compile(r"[ \t]*\n\s*")


def plain(text: str, starts_line: bool = True) -> str:
    """`text` without Markdown emphasis, list markers, heading marks and line breaks. `starts_line`: whether `text`
    begins a line of what it was cut from (if not, its first marker is only one of `_MID_LINE_MARKER`'s)."""

    def unmarked(marker: re.Match[str]) -> str:
        if marker.start() > 0 or starts_line:
            return ""
        mid_line = _MID_LINE_MARKER.match(marker.string)
        return "" if mid_line and mid_line.end() == marker.end() else marker.group()

    text = _LINE_MARKER.sub(unmarked, text)
    text = _EMPHASIS.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    return _LINE_BREAKS.sub(" ", text).strip()


def plain_sentences(text: str, sentences: list[str]) -> list[str]:
    """`sentences` (cut from `text` in order) in plain text, the empty ones left out."""
    out, cursor = [], 0
    for sentence in sentences:
        at = text.find(sentence, cursor)
        starts_line = at <= 0 or text[:at].rstrip(" \t").endswith("\n") or not text[:at].strip()
        cursor = at + len(sentence) if at >= 0 else cursor
        if cleaned := plain(sentence, starts_line):
            out.append(cleaned)
    return out
