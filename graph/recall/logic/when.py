"""The days a question names, read against when it is asked: what the when, in-span and aggregate steps search."""

from __future__ import annotations

from datetime import datetime

from engram.extraction.temporal import Span, named_months, resolve_relative_times
from engram.time_windows import question_spans


def query_spans(query: str, now: datetime | None) -> list[Span]:
    """The days each time the query names covers, read against `now` (engram/time_windows.py: Duckling, and the
    latest "early July" or "Christmas" begun by then); where Duckling finds none, ingestion's relative times ("several
    weeks ago") and the calendar months named; none without `now`."""
    if now is None:
        return []
    return question_spans(query, now) or resolve_relative_times(query, now).spans + named_months(query, now)
