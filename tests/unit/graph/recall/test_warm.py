"""The recall warm-up (graph/recall/warm.py) sends every statement the Neo4j searcher can send, in every list-size
decade Neo4j plans apart, for a null and a set `as_of`, and never about a space a tenant could own.

The searcher's reads run through an in-memory `read` (our own function, graph/reads.py) that records what would be
sent and answers with empty rows."""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import graph.aggregate.store
import graph.recall.neo4j_searcher
from engram.scope import validate_memory_space
from engram.settings import PROJECT_ROOT
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.search_statements import SpaceSizes
from graph.recall.warm import WARM_SPACE, warm_recall

EMPTY = {"rows": [], "scores": [], "fetched": 0, "hits": [], "floor": None, "holding": [], "vectors": [],
         "concepts": [], "count": 0, "unquantified": 0, "units": [], "periods": []}  # fmt: skip
SIZE_COUNTS = {"propositions": 0, "episodes": 0, "prescriptions": 0, "intents": 0, "concepts": 0, "pages": 0,
               "own_indexes": 0, "proposition_chars": 0, "episode_chars": 0}  # fmt: skip


def _decade(n: int) -> int:
    """Neo4j's plan cache keys a list parameter by the decade of its length (1, 2-10, 11-100, 101-1000: 0 to 3);
    an empty list is -1 here (kept apart, in case Neo4j keeps it apart too)."""
    return -1 if n == 0 else 0 if n == 1 else len(str(n - 1))


class Sent:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, driver: object, database: str, statement: str, query: object, **params: Any) -> list[Any]:
        with self.lock:
            self.calls.append((statement, params))
        return [SIZE_COUNTS if statement == "recall/space_size" else EMPTY]


@pytest.fixture()
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    recorder = Sent()
    monkeypatch.setattr(graph.recall.neo4j_searcher, "read", recorder.read)
    monkeypatch.setattr(graph.aggregate.store, "read", recorder.read)
    with ThreadPoolExecutor(4) as threads:

        def searcher_of(space: str, as_of: datetime | None, sizes: SpaceSizes | None) -> GraphSearcher:
            return GraphSearcher(object(), "neo4j", space, as_of, sizes)  # type: ignore[arg-type]

        report = warm_recall(searcher_of, [0.1] * 384, threads)
    assert report.calls > 0 and len(recorder.calls) >= report.calls
    return recorder


SEARCHER_MODULES = ("neo4j_searcher.py", "search_statements.py")  # the searcher and its statement tables


def test_every_statement_the_searcher_can_send_is_warmed(sent: Sent) -> None:
    source = "".join(Path(PROJECT_ROOT, "graph/recall", name).read_text() for name in SEARCHER_MODULES)
    named = {f"recall/{p.stem}" for p in Path(PROJECT_ROOT, "cypher/recall").glob("*.cypher")
             if re.search(rf'"{p.stem}"', source)}  # fmt: skip
    assert len(named) >= 25  # the search statements, the hydrations, the windows, the pages...
    warmed = {statement for statement, _ in sent.calls}
    assert named | {"aggregate/matching", "aggregate/tally"} <= warmed


def test_each_statement_is_warmed_with_a_null_and_a_set_as_of(sent: Sent) -> None:
    as_of: dict[str, set[bool]] = defaultdict(set)
    for statement, params in sent.calls:
        as_of[statement].add(params["as_of"] is None)
    assert all(kinds == {True, False} for kinds in as_of.values()), as_of


def test_the_lists_recall_sends_are_warmed_in_each_decade_it_sends(sent: Sent) -> None:
    decades: dict[tuple[str, str], set[int]] = defaultdict(set)
    for statement, params in sent.calls:
        for name, value in params.items():
            if isinstance(value, list) and name != "vector":
                decades[(statement, name)].add(_decade(len(value)))
    # Hundreds of candidates are hydrated and looked up; the query's concepts and seeds go to 100.
    assert decades[("recall/hydrate_propositions", "items")] >= {0, 1, 2, 3}
    assert decades[("recall/earlier_versions", "ids")] >= {0, 1, 2, 3}
    assert decades[("recall/top_items", "propositions")] >= {-1, 0, 1, 2, 3}
    assert decades[("recall/top_items", "episodes")] >= {-1, 0, 1, 2}
    for key in (
        ("recall/concepts_by_key", "keys"),
        ("recall/propagate", "seeds"),
        ("recall/expand_concepts", "concepts"),
        ("recall/scored_episodes", "episodes"),  # the participants' hits taken from the seeds' scan (25)
    ):
        assert decades[key] >= {0, 1, 2}, key
    # A small space's full-text rescoring sends a list item per query term (up to 32 terms).
    assert decades[("recall/fulltext_propositions", "queries")] >= {0, 1, 2}


def test_the_vector_is_the_embedding_size_and_no_tenant_space_is_read(sent: Sent) -> None:
    with pytest.raises(ValueError):
        validate_memory_space(WARM_SPACE)  # no tenant can own it, no write can create it
    assert {params["space"] for _, params in sent.calls} == {WARM_SPACE}
    assert {len(params["vector"]) for _, params in sent.calls if "vector" in params} == {384}


def test_both_the_exact_and_the_index_paths_are_warmed(sent: Sent) -> None:
    warmed = {statement for statement, _ in sent.calls}
    for label in ("propositions", "episodes", "prescriptions", "intents"):
        assert {f"recall/exact_{label}", f"recall/dense_{label}"} <= warmed
    assert {"recall/exact_concepts", "recall/dense_concepts", "recall/window_told_episodes"} <= warmed
    assert "recall/exact_episodes_scored" in warmed  # a small space's unfiltered scan, which keeps its scores
    scoped = [p["lucene"] for s, p in sent.calls if s == "recall/fulltext_episodes"]
    assert any(q.startswith("space:") for q in scoped) and any(not q.startswith("space:") for q in scoped)


def test_a_read_that_fails_once_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder, refused = Sent(), list[str]()

    def flaky(driver: object, database: str, statement: str, query: object, **params: Any) -> list[Any]:
        if statement == "recall/top_items" and not refused:
            refused.append(statement)
            raise RuntimeError("database not up to the requested bookmark")
        return recorder.read(driver, database, statement, query, **params)

    monkeypatch.setattr(graph.recall.neo4j_searcher, "read", flaky)
    monkeypatch.setattr(graph.aggregate.store, "read", flaky)

    def searcher_of(space: str, as_of: datetime | None, sizes: SpaceSizes | None) -> GraphSearcher:
        return GraphSearcher(object(), "neo4j", space, as_of, sizes)  # type: ignore[arg-type]

    with ThreadPoolExecutor(4) as threads:
        report = warm_recall(searcher_of, [0.1] * 384, threads)
    assert refused and report.calls > 0
    assert sum(statement == "recall/top_items" for statement, _ in recorder.calls) >= 30  # every shape, the refused too
