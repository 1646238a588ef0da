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


SourcePage = tuple[str, int, int]  # (source id, skip, limit)


def _source_pages(reader: GraphReader) -> DataLoader[SourcePage, tuple[list[Row], int]]:
    """Pages of sources' episodes: the keys asking for the same page of different sources share one statement."""

    async def load(keys: list[SourcePage]) -> list[tuple[list[Row], int]]:
        by_page: dict[tuple[int, int], list[str]] = {}
        for source_id, skip, limit in keys:
            by_page.setdefault((skip, limit), []).append(source_id)
        found: dict[SourcePage, tuple[list[Row], int]] = {}
        for (skip, limit), ids in by_page.items():
            pages = await asyncio.to_thread(reader.episodes_of_sources, ids, skip, limit)
            found.update({(i, skip, limit): page for i, page in pages.items()})
        return [found.get(key, ([], 0)) for key in keys]

    return DataLoader(load_fn=load)


class Loaders:
    def __init__(self, reader: GraphReader) -> None:
        self.node: DataLoader[str, tuple[str, Row] | None] = _batched(reader.nodes, lambda: None)
        self.provenance: DataLoader[str, list[Row]] = _batched(reader.provenance, list)
        self.concepts: DataLoader[str, list[Row]] = _batched(reader.concepts_of, list)
        self.knowledge: DataLoader[str, list[Row]] = _batched(reader.knowledge_of, list)
        self.source_episodes = _source_pages(reader)
