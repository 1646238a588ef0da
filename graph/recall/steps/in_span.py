"""In span first: a question that names a time ("What did Tom do last week?", "in March", read against the request's
`now`: graph/recall/steps/when.py) puts first what happened in the days it names.

An item's time is when what it says happened in the world: a proposition's `valid_from` (ingestion dates "I ran a
half marathon last week", told on 10 June, to the week of 3 June), else the latest time one of its utterances was told.
Items in a named span go above the others, in their order, if they score at least `span_closeness` x the first item:
the time a question names narrows what it asks about, it does not replace it (an unrelated chat of that week stays
where it is). Another statement told in the span that speaks of an earlier time ("I moved to Lisbon two weeks ago") is
not in it. A moved item takes the score of the item it now stands above, so scores fall with the rank."""

from __future__ import annotations

from datetime import date, datetime

from engram.extraction.temporal import Span
from graph.recall.candidates import Ranked
from graph.recall.logic.when import query_spans
from graph.recall.reading import Form
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


def item_time(item: Ranked) -> datetime | None:
    """When what the item says happened: its `valid_from`, else the latest time it was told."""
    if item.valid_from is not None:
        return item.valid_from
    return max((p.occurred_at for p in item.provenance if p.occurred_at), default=None)


def in_spans(when: datetime | None, spans: list[Span]) -> bool:
    if when is None:
        return False
    day: date = when.date()
    return any(span.first <= day < span.end for span in spans)


def in_span_first(ranked: list[Ranked], spans: list[Span], closeness: float) -> list[Ranked]:
    """The items of the named spans scoring at least `closeness` x the first, then the rest, each in its order."""
    if not spans or not ranked:
        return ranked
    floor = closeness * ranked[0].score
    first = [item for item in ranked if item.score >= floor and in_spans(item_time(item), spans)]
    if not first or all(a is b for a, b in zip(first, ranked, strict=False)):
        return ranked
    chosen = {id(item) for item in first}
    order = first + [item for item in ranked if id(item) not in chosen]
    for below in range(len(order) - 1, 0, -1):  # from the bottom up: scores fall with the rank
        order[below - 1].score = max(order[below - 1].score, order[below].score)
    return order


class InSpanFirst(Step[None]):
    name = "in span first"

    def runs(self, run: RecallRun) -> bool:
        return (
            run.config.order.span_closeness > 0
            and run.reading.form is Form.EVENT  # what happened then; a state's time is asOf's to read
            and len(run.ranked) > 1
            and bool(query_spans(run.request.query, run.request.now))
        )

    def apply(self, run: RecallRun, found: None) -> None:
        spans = query_spans(run.request.query, run.request.now)
        before = [item.id for item in run.ranked]
        run.ranked = in_span_first(run.ranked, spans, run.config.order.span_closeness)
        moved = [item.id for rank, item in enumerate(run.ranked) if before.index(item.id) > rank][:20]
        run.trace.add("in span first", spans=len(spans), moved_up=moved)
