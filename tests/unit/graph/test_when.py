"""The days around the times a query names (graph/recall/steps/when.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from engram.extraction.temporal import Span, resolve_relative_times
from graph.recall.hits import TimeWindow
from graph.recall.steps.when import windows


def test_each_named_span_gets_the_days_either_side() -> None:
    may_10 = Span(date(2023, 5, 10), date(2023, 5, 11))
    april = Span(date(2023, 4, 1), date(2023, 5, 1))  # "last month": the whole month, and a week either side
    assert windows([may_10, april, may_10], 7) == [
        TimeWindow(_utc(2023, 3, 25), _utc(2023, 5, 8), _utc(2023, 4, 1), _utc(2023, 5, 1)),
        TimeWindow(_utc(2023, 5, 3), _utc(2023, 5, 18), _utc(2023, 5, 10), _utc(2023, 5, 11)),
    ]
    assert windows([], 7) == []


def _utc(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def test_a_query_names_times_only_against_the_moment_it_is_asked() -> None:
    query = "What concert did I go to two weeks ago?"
    assert resolve_relative_times(query, datetime(2023, 5, 24, 12, tzinfo=UTC)).dates == [date(2023, 5, 10)]
    assert resolve_relative_times(query, None).dates == []


def test_a_query_names_spans_as_wide_as_it_says() -> None:
    asked = datetime(2023, 5, 24, 12, tzinfo=UTC)  # a Wednesday
    spans = {
        "What did I bake in the past two weeks?": Span(date(2023, 5, 10), date(2023, 5, 25)),
        "Which parties did I go to in the past month?": Span(date(2023, 4, 24), date(2023, 5, 25)),
        "Which shoes did I clean last month?": Span(date(2023, 4, 1), date(2023, 5, 1)),
        "What did I read last week?": Span(date(2023, 5, 15), date(2023, 5, 22)),
        "Where did I go last weekend?": Span(date(2023, 5, 20), date(2023, 5, 22)),
        "Who called me yesterday?": Span(date(2023, 5, 23), date(2023, 5, 24)),
        # A time ago reaches as far either side of its day as the unit it is counted in allows, and dates the day.
        "What concert did I go to two weeks ago?": Span(date(2023, 5, 7), date(2023, 5, 14), at=date(2023, 5, 10)),
        "What did I buy a month ago?": Span(date(2023, 4, 9), date(2023, 5, 10), at=date(2023, 4, 24)),
        "Where was I three days ago?": Span(date(2023, 5, 21), date(2023, 5, 22), at=date(2023, 5, 21)),
    }
    for query, span in spans.items():
        assert resolve_relative_times(query, asked).spans == [span], query
