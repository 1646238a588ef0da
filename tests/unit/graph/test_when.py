"""The days around the times a query names (graph/recall/steps/when.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from engram.extraction.temporal import resolve_relative_times
from graph.recall.steps.when import windows


def test_each_named_day_gets_the_days_either_side() -> None:
    spans = windows([date(2023, 5, 10), date(2023, 5, 10), date(2023, 4, 1)], 7)
    assert spans == [
        (datetime(2023, 3, 25, tzinfo=UTC), datetime(2023, 4, 9, tzinfo=UTC)),
        (datetime(2023, 5, 3, tzinfo=UTC), datetime(2023, 5, 18, tzinfo=UTC)),
    ]
    assert windows([], 7) == []


def test_a_query_names_times_only_against_the_moment_it_is_asked() -> None:
    query = "What concert did I go to two weeks ago?"
    assert resolve_relative_times(query, datetime(2023, 5, 24, 12, tzinfo=UTC)).dates == [date(2023, 5, 10)]
    assert resolve_relative_times(query, None).dates == []
