"""The graph operations recall needs, each one Cypher file, all scoped by space."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import neo4j

from graph.cypher import load

MAX_FETCH = 8192
# Up to this many nodes of a label, a space is scanned exactly rather than through the shared ANN index.
EXACT_SCAN_MAX = 5000


@dataclass(frozen=True)
class Hit:
    id: str
    score: float


@dataclass(frozen=True)
class ConceptHit:
    id: str
    key: str
    idf: float
    df: int
    score: float = 1.0


def _next_fetch(fetch: int, hits: int, k: int) -> int:
    """The next over-fetch from a shared index after `fetch` rows gave `hits` of this space (fewer than k).

    Grows by the space's share seen in those rows (with a margin), not by a fixed factor: a space holding most of
    the index needs a few more rows (at 100k, 80 -> 160 instead of 640, which took twice as long), a small one
    many more; either way few round trips.
    """
    share = hits / fetch
    return min(MAX_FETCH, max(2 * fetch, math.ceil(1.5 * k / share) if share else 8 * fetch))


class GraphSearcher:
    def __init__(self, driver: neo4j.Driver, database: str, space: str, as_of: datetime | None) -> None:
        self._driver = driver
        self._database = database
        self._space = space
        self._as_of = as_of
        self.queries = 0  # Cypher statements issued, for the trace and the query-count tests
        self._lock = threading.Lock()  # seeding searches run in threads
        self._sizes: dict[str, int] | None = None
        self.hydrated: dict[str, dict[str, Any]] = {}  # item rows already fetched during this recall

    @property
    def space(self) -> str:
        return self._space

    def _run(self, name: str, **params: Any) -> list[neo4j.Record]:
        with self._lock:
            self.queries += 1
        records: list[neo4j.Record]
        records, _, _ = self._driver.execute_query(
            load(f"recall/{name}"),
            space=self._space,
            as_of=self._as_of,
            database_=self._database,
            routing_=neo4j.RoutingControl.READ,
            **params,
        )
        return records

    def _overfetched(self, name: str, k: int, **params: Any) -> list[Hit]:
        """Indexes cannot filter by space: fetch more until k hits of this space come back or the index is exhausted."""
        fetch = max(2 * k, 32)
        while True:
            records = self._run(name, fetch=fetch, k=k, **params)
            if len(records) >= k or fetch >= MAX_FETCH:
                return [Hit(r["id"], float(r["score"])) for r in records]
            fetch = _next_fetch(fetch, len(records), k)

    def load_sizes(self) -> None:
        if self._sizes is None:
            self._sizes = dict(self._run("space_size", cap_plus_one=EXACT_SCAN_MAX + 1)[0])

    def size(self, label: str) -> int:
        self.load_sizes()
        assert self._sizes is not None
        return int(self._sizes[label])

    def dense(self, label: str, vector: list[float], k: int) -> list[Hit]:
        if self.size(label) <= EXACT_SCAN_MAX:
            # fetch: room for statements merged into others, which resolve to the same current proposition
            records = self._run(f"exact_{label}", vector=vector, k=k, fetch=4 * k)
            return [Hit(r["id"], float(r["score"])) for r in records]
        return self._overfetched(f"dense_{label}", k, vector=vector)

    def fulltext(self, label: str, lucene: str, k: int) -> list[Hit]:
        if not lucene:
            return []
        return self._overfetched(f"fulltext_{label}", k, lucene=lucene)

    def episode_knowledge(self, episode_ids: Sequence[str]) -> dict[str, tuple[list[str], int]]:
        """Episode -> (ids of the current propositions it proves, how many propositions it ever proved)."""
        if not episode_ids:
            return {}
        records = self._run("episode_knowledge", episode_ids=list(episode_ids))
        return {r["episode_id"]: (list(r["proposition_ids"]), int(r["knowledge"])) for r in records}

    def episode_context(self, anchors: dict[str, int], vector: list[float]) -> list[neo4j.Record]:
        """Episode id -> rank of the item it proves; returns the neighbouring episodes and their knowledge."""
        if not anchors:
            return []
        rows = [{"id": episode_id, "rank": rank} for episode_id, rank in anchors.items()]
        return self._run("episode_context", anchors=rows, vector=vector)

    def concepts_by_key(self, keys: Sequence[str]) -> list[ConceptHit]:
        if not keys:
            return []
        records = self._run("concepts_by_key", keys=list(keys))
        return [ConceptHit(r["id"], r["key"], float(r["idf"]), int(r["df"])) for r in records]

    def dense_concepts(self, vector: list[float], k: int, min_score: float) -> list[ConceptHit]:
        """The k concepts of this space closest to `vector` with a score of at least `min_score`."""
        fetch = max(8 * k, 64)
        while True:
            (record,) = self._run("dense_concepts", vector=vector, fetch=fetch, min_score=min_score)
            hits = sorted(record["hits"], key=lambda h: (-float(h["score"]), h["id"]))
            exhausted = int(record["fetched"]) < fetch or record["floor"] is None or record["floor"] < min_score
            if len(hits) >= k or exhausted or fetch >= MAX_FETCH:
                return [
                    ConceptHit(h["id"], h["key"], float(h["idf"]), int(h["df"]), float(h["score"])) for h in hits[:k]
                ]
            fetch = _next_fetch(fetch, len(hits), k)

    def propagate(self, seeds: Sequence[ConceptHit], fanout: int) -> list[tuple[str, ConceptHit, float]]:
        if not seeds:
            return []
        records = self._run("propagate", seeds=[{"id": s.id} for s in seeds], fanout=fanout)
        return [
            (r["seed"], ConceptHit(r["id"], r["key"], float(r["idf"]), int(r["df"])), float(r["weight"] or 0.0))
            for r in records
        ]

    def expand(self, activations: dict[str, float], vector: list[float], per_concept: int) -> list[neo4j.Record]:
        if not activations:
            return []
        concepts = [{"id": cid, "activation": a} for cid, a in activations.items()]
        return self._run("expand_concepts", concepts=concepts, vector=vector, per_concept=per_concept)

    def hydrate(self, label: str, ids: Sequence[str], vector: list[float]) -> list[neo4j.Record]:
        if not ids:
            return []
        return self._run(f"hydrate_{label}", ids=list(ids), vector=vector)

    def item_concepts(self, ids: Sequence[str]) -> list[ConceptHit]:
        if not ids:
            return []
        records = self._run("top_item_concepts", ids=list(ids))
        return [ConceptHit(r["id"], r["key"], float(r["idf"]), int(r["df"])) for r in records]
