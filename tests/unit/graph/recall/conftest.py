"""Fixtures for the recall steps and engine over an in-memory memory (tests/unit/graph/recall/recall_support.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.run import RecallRun
from graph.recall.threads import RecallThreads
from tests.support.memory_searcher import MemoryGraph
from tests.unit.graph.recall.recall_support import MakeEngine, MakeRun, chat_memory, new_engine, new_run, recall_config


@pytest.fixture(autouse=True)
def _no_recall_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defaults, whatever ENGRAM_RECALL_* the shell running the tests has set."""
    for name in list(os.environ):
        if name.upper().startswith("ENGRAM_RECALL_"):
            monkeypatch.delenv(name)


@pytest.fixture()
def graph() -> MemoryGraph:
    return chat_memory()


@pytest.fixture()
def threads() -> Iterator[RecallThreads]:
    pool = RecallThreads(searches=4, steps=4)
    yield pool
    pool.close()


@pytest.fixture()
def make_run(graph: MemoryGraph, threads: RecallThreads) -> MakeRun:
    """A `RecallRun` of `query` over the chat memory (or `graph`), with the request `fields`."""
    chat = graph

    def factory(
        query: str, config: RecallConfig | None = None, graph: MemoryGraph | None = None, **fields: Any
    ) -> RecallRun:
        return new_run(graph or chat, threads, query, config or recall_config(), **fields)

    return factory


@pytest.fixture()
def make_engine(graph: MemoryGraph) -> Iterator[MakeEngine]:
    """A `RecallEngine` over `graph` (the chat memory unless given); closed after the test."""
    chat = graph
    engines: list[RecallEngine] = []

    def factory(config: RecallConfig | None = None, graph: MemoryGraph | None = None) -> RecallEngine:
        engine = new_engine(graph or chat, config or recall_config())
        engines.append(engine)
        return engine

    yield factory
    for engine in engines:
        engine.close()
