"""Words a statement keeps as they were said: quotations and titles ("Sweet Child O' Mine", “My Sister, the Serial
Killer”), and the fillers "you know", "you see", "I mean". Rewriting persons and times in them would misquote: "I"
in a quotation is whoever is quoted, "Last Night" in a song title is no date, and "you know" addresses nobody.

`set_aside` replaces each such part with one private-use character, which no rewriting pattern matches and a word
boundary treats as punctuation; `Verbatim.restore` puts the words back after rewriting."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A quotation within one line, at most this long: past it, an opening quote more likely has no partner than
# encloses a quotation.
_MAX_QUOTED = 200
_QUOTED = re.compile(rf"\"[^\"\n]{{1,{_MAX_QUOTED}}}\"|“[^”\n]{{1,{_MAX_QUOTED}}}”")
# A filler: at the start of a sentence before a comma ("You know, it's crazy"), or after a comma at a clause's end
# (", you know?").
_FILLER = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:you know|you see|I mean)(?=,)|(?<=,\s)(?:you know|you see|I mean)(?=\s*(?:[,.!?]|$))",
    re.IGNORECASE,
)
_FIRST = 0xE000  # the Unicode private use area: characters no text of ours holds
_LAST = 0xF8FF


@dataclass(frozen=True)
class Verbatim:
    masked: str
    parts: tuple[str, ...]

    def restore(self, text: str) -> str:
        """`text` (the masked text, rewritten) with the parts set aside back in place."""
        if not self.parts:
            return text
        return re.sub(f"[{chr(_FIRST)}-{chr(_FIRST + len(self.parts) - 1)}]", lambda m: self._part(m.group()), text)

    def _part(self, marker: str) -> str:
        return self.parts[ord(marker) - _FIRST]


def set_aside(text: str) -> Verbatim:
    """`text` with its quotations and fillers each replaced by a marker character (none if the text holds the
    private use area's characters already, which would be taken for markers)."""
    if re.search(f"[{chr(_FIRST)}-{chr(_LAST)}]", text):
        return Verbatim(text, ())
    parts: list[str] = []

    def mark(match: re.Match[str]) -> str:
        if _FIRST + len(parts) > _LAST:
            return match.group()
        parts.append(match.group())
        return chr(_FIRST + len(parts) - 1)

    masked = _FILLER.sub(mark, _QUOTED.sub(mark, text))
    return Verbatim(masked, tuple(parts))
