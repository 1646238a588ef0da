"""DataLoaders: every nested field of a kind, across the whole response, is fetched in one batched query."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from strawberry.dataloader import DataLoader

from graph.lookup import GraphReader, Row

T = TypeVar("T")


def _batched(fetch: Callable[[Sequence[str]], dict[str, T]], missing: Callable[[], Any]) -> DataLoader[str, Any]:
    async def load(keys: list[str]) -> list[Any]:
        # The driver is synchronous: run the batch off the event loop.
        found = await asyncio.to_thread(fetch, keys)
        return [found.get(key, missing()) for key in keys]

    return DataLoader(load_fn=load)


class Loaders:
    def __init__(self, reader: GraphReader) -> None:
        self.node: DataLoader[str, tuple[str, Row] | None] = _batched(reader.nodes, lambda: None)
        self.provenance: DataLoader[str, list[Row]] = _batched(reader.provenance, list)
        self.concepts: DataLoader[str, list[Row]] = _batched(reader.concepts_of, list)
        self.knowledge: DataLoader[str, list[Row]] = _batched(reader.knowledge_of, list)
