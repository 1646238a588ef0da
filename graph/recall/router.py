"""Route a query to the memory types it needs (offline rules; a model can replace them behind `Router`)."""

from __future__ import annotations

import re
from typing import Protocol

from graph.recall.models import MemoryType

_PROCEDURAL = re.compile(
    r"^\s*(how (do|does|can|could|should|would|to|did)\b|what('s| is| are) the (best )?(way|steps)|steps to\b)",
    re.IGNORECASE,
)
_EPISODIC = re.compile(
    r"\b(say|said|tell|told|mention(ed)?|talk(ed)?|conversation|chat(ted)?|ask(ed)?|discuss(ed)?)\b", re.IGNORECASE
)


class Router(Protocol):
    def route(self, query: str) -> list[MemoryType]: ...


class RuleRouter:
    """Knowledge first; episodes too, because a fact may live only in an utterance no rule turned into one.

    Procedures are searched for every query, last: a task is often given as an instruction ("put a clean mug in the
    coffee machine") that no question pattern catches, and a dense vote counts by how well it matches, so an
    unrelated procedure does not outrank knowledge. The first type decides the mode (episodes or knowledge)."""

    def route(self, query: str) -> list[MemoryType]:
        if _PROCEDURAL.search(query):
            return [MemoryType.PROCEDURAL, MemoryType.SEMANTIC]
        if _EPISODIC.search(query):
            return [MemoryType.EPISODIC, MemoryType.SEMANTIC, MemoryType.PROCEDURAL]
        return [MemoryType.SEMANTIC, MemoryType.EPISODIC, MemoryType.PROCEDURAL]
