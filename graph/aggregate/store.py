"""The aggregation path's reads (cypher/aggregate/): every statement matching a question, and the count, sums and
periods of the events found. `GraphSearcher.aggregates()` gives one for its space, scope and as-of time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import neo4j

from graph.cypher import load
from graph.reads import read, timed


@dataclass(frozen=True)
class MatchQuery:
    vector: list[float]
    terms: Sequence[Sequence[str]]  # each target word's lower-case forms (graph/aggregate/compute.py stems)
    speakers: Sequence[str] | None  # only what they said (None: anyone)
    windows: Sequence[tuple[datetime, datetime]] | None  # only what is dated in one of these [start, end)
    min_similarity: float
    min_similarity_alone: float
    min_term_share: float
    min_confidence: float
    cap: int


class AggregateReader(Protocol):
    def matching(self, query: MatchQuery) -> list[dict[str, Any]]:
        """Rows {id, text, similarity, term_share, at, embedding, provenance} of every matching statement."""

    def tally(self, events: Sequence[dict[str, Any]], period: str | None) -> dict[str, Any]:
        """{count, unquantified, units: [{unit, sum, count}], periods: [{period, unit, count, sum}]} of the events
        ({id, value, unit})."""


@runtime_checkable
class ReadsAggregates(Protocol):
    """A recall searcher that can read aggregates of its space (the Neo4j one)."""

    def aggregates(self) -> AggregateReader: ...


class Neo4jAggregateReader:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        space: str,
        as_of: datetime | None,
        scope: dict[str, Any],
        timeout_s: float | None,
        known_at: datetime | None = None,
    ) -> None:
        self._driver = driver
        self._database = database
        self._params: dict[str, Any] = {"space": space, "as_of": as_of, "known_at": known_at, "scope": scope}
        self._timeout_s = timeout_s

    def _record(self, name: str, **params: Any) -> neo4j.Record:
        statement = f"aggregate/{name}"
        records = read(
            self._driver, self._database, statement, timed(load(statement), self._timeout_s), **self._params, **params
        )
        return records[0]

    def matching(self, query: MatchQuery) -> list[dict[str, Any]]:
        windows = None if query.windows is None else [{"start": s, "end": e} for s, e in query.windows]
        record = self._record(
            "matching",
            vector=query.vector,
            terms=[list(forms) for forms in query.terms],
            speakers=None if query.speakers is None else list(query.speakers),
            windows=windows,
            min_similarity=query.min_similarity,
            min_similarity_alone=query.min_similarity_alone,
            min_term_share=query.min_term_share,
            min_confidence=query.min_confidence,
            cap=query.cap,
        )
        rows: list[dict[str, Any]] = record["rows"]
        return rows

    def tally(self, events: Sequence[dict[str, Any]], period: str | None) -> dict[str, Any]:
        return dict(self._record("tally", events=list(events), period=period))
