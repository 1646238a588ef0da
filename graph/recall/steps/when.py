"""When: a query that names a time relative to when it is asked ("What did I do two weeks ago?", "last month", "the
past two weeks", "in early July") is read against the request's `now` (engram/time_windows.py: Duckling and a thin
wrapper) as the days each time covers, and the episodes of those days and a week either side join the
candidates (list "when"). First come those holding a statement that says it happened in the days named, then around
them: ingestion dated it by its own words ("I cleaned my sneakers last month", told weeks later; "I went to the Met
today"), and that is stronger evidence than having been told then, when a person also recalls older outings and plans
new ones. Then the episodes told then; each group closest to the query first. Without `now` nothing is read: a
relative time means nothing without the moment it is relative to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from engram.extraction.temporal import Span
from graph.recall.candidates import merge_episode_hits
from graph.recall.hits import Hit, TimeWindow
from graph.recall.logic.when import query_spans
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass(frozen=True)
class WhenSearch:
    spans: list[Span]  # the times the query names, resolved to the days each covers
    hits: list[Hit]
    stated: int  # how many of the hits (the first) hold a statement dated in the days around one


def windows(spans: list[Span], width: int) -> list[TimeWindow]:
    """Each span's days (its core) with `width` days either side (UTC): a time named loosely ("two weeks ago", "last
    month") still covers what happened around it."""
    around = timedelta(days=width)
    return [
        TimeWindow(_midnight(s.first - around), _midnight(s.end + around), _midnight(s.first), _midnight(s.end))
        for s in sorted(set(spans), key=lambda s: (s.first, s.end))
    ]


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


class When(Step[WhenSearch]):
    name = "when"

    def runs(self, run: RecallRun) -> bool:
        return run.request.now is not None and bool(run.config.evidence.when_k)

    def find(self, run: RecallRun) -> WhenSearch:
        return search_when(run)

    def apply(self, run: RecallRun, found: WhenSearch | None) -> None:
        if found is not None:
            join_when(run, found)


def search_when(run: RecallRun) -> WhenSearch:
    now = run.request.now
    if now is None:
        return WhenSearch([], [], 0)
    spans = query_spans(run.request.query, now)
    found = run.searcher.episodes_within(
        windows(spans, run.config.evidence.when_days), run.vector, run.config.evidence.when_k
    )
    return WhenSearch(spans, found.hits, found.stated)


def join_when(run: RecallRun, search: WhenSearch) -> None:
    """Merges the episodes of the times the query names (list "when")."""
    before = len(run.candidates)
    merge_episode_hits("when", search.hits, run.types, run.candidates, run.vote)
    days = [{"from": s.first.isoformat(), "to": (s.end - timedelta(days=1)).isoformat()} for s in search.spans]
    detail = {"days": days, "episodes": len(search.hits), "stated": search.stated, "new": len(run.candidates) - before}
    run.trace.add("when", **detail)
    run.unranked_evidence += len(search.hits)
