"""When: a query that names a time relative to when it is asked ("What did I do two weeks ago?") is read against the
request's `now` (engram/extraction/temporal.py, the rule ingestion resolves "yesterday" by), and the episodes of the
days around each time it names join the candidates (list "when"). First come those holding a statement that says it
happened then: ingestion dated it by its own words ("I cleaned my sneakers last month", told weeks later; "I went to
the Met today"), and that is stronger evidence than having been told then, when a person also recalls older outings
and plans new ones. Then the episodes told then; each group closest to the query first. Without `now` nothing is
read: a relative time means nothing without the moment it is relative to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from engram.extraction.temporal import resolve_relative_times
from graph.recall.candidates import merge_episode_hits
from graph.recall.models import TraceStep
from graph.recall.run import RecallRun
from graph.recall.search import Hit


@dataclass(frozen=True)
class WhenSearch:
    days: list[date]  # the times the query names, resolved
    hits: list[Hit]
    stated: int  # how many of the hits (the first) hold a statement dated in the days around one


def windows(days: list[date], width: int) -> list[tuple[datetime, datetime]]:
    """The `width` days either side of each day (UTC): a week or a month named loosely ("two weeks ago", "last
    month" resolves to its first day) still covers what happened then."""
    spans = []
    for day in sorted(set(days)):
        midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
        spans.append((midnight - timedelta(days=width), midnight + timedelta(days=width + 1)))
    return spans


def search_when(run: RecallRun) -> WhenSearch:
    now = run.request.now
    if now is None:
        return WhenSearch([], [], 0)
    days = resolve_relative_times(run.request.query, now).dates
    found = run.searcher.episodes_within(windows(days, run.tuning.when_days), run.vector, run.tuning.when_k)
    return WhenSearch(days, found.hits, found.stated)


def join_when(run: RecallRun, search: WhenSearch) -> int:
    """Merges the episodes of the times the query names; returns how many there were."""
    before = len(run.candidates)
    merge_episode_hits("when", search.hits, run.types, run.candidates, run.vote)
    detail = {"days": [d.isoformat() for d in search.days], "episodes": len(search.hits), "stated": search.stated,
              "new": len(run.candidates) - before}  # fmt: skip
    run.trace.append(TraceStep(step="when", detail=detail))
    return len(search.hits)
