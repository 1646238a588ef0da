"""Route a query to the memory types it needs (the wording rules of graph/recall/query.py; a model can replace them
behind `Router`)."""

from __future__ import annotations

from typing import Protocol

from graph.recall.models import MemoryType
from graph.recall.query import memory_types


class Router(Protocol):
    def route(self, query: str) -> list[MemoryType]: ...


class RuleRouter:
    def route(self, query: str) -> list[MemoryType]:
        return memory_types(query)
