"""A bound on how deeply a JSON text nests, checked before it is parsed.

Python's json module parses nesting by recursion: a payload of 100,000 nested brackets raises RecursionError, which
a server reports as an internal error and a CLI as a traceback. No record Engram reads nests more than a few levels,
so a deeper text is refused with a clear message before it reaches the parser.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 64
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class JsonTooDeep(ValueError):
    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels")
        self.limit = limit


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def loads_bounded(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads`, refusing a text nested deeper than `limit` (JsonTooDeep) before parsing it."""
    decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    if json_depth(decoded) > limit:
        raise JsonTooDeep(limit)
    return json.loads(decoded)
