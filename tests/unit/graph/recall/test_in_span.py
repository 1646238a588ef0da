"""In span first (graph/recall/steps/in_span.py): a question naming a time puts what happened in the days it names
first, over the chat memory of recall_support.py, searched in memory."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from engram.extraction.temporal import Span, named_months
from graph.recall.config import RecallConfig
from graph.recall.logic.when import query_spans
from graph.recall.run import RecallRun
from graph.recall.steps.in_span import InSpanFirst
from graph.recall.steps.route import Route
from tests.support.memory_searcher import MemoryGraph
from tests.unit.graph.recall.recall_support import (
    MakeEngine,
    MakeRun,
    perform,
    ranked,
    recall_config,
    request,
    trace_detail,
    trace_steps,
)

MONDAY_AFTER = datetime(2024, 3, 25, 9, tzinfo=UTC)  # "last week" is 18-24 March, session 2's week
JUNE = datetime(2024, 6, 12, 12, tzinfo=UTC)


ON = 0.5  # the closeness the step was set by hand to (docs/tuning.md span_closeness)


def ids(run: RecallRun) -> list[str]:
    return [item.id for item in run.ranked]


def hand_made(
    make_run: MakeRun, graph: MemoryGraph, query: str, config: RecallConfig | None = None, **fields: Any
) -> RecallRun:
    """p_lisbon (told 20 March of a move on 1 February) first, the hike of 19 March third, Rex's daily food (told 20
    March, no date of its own) last and weak. The step on at ON (it is off by default: docs/tuning.md)."""
    run = perform(make_run(query, config or recall_config(span_closeness=ON), **fields), Route())
    scores = (("p_lisbon", 1.0), ("p_rex", 0.8), ("p_hike", 0.6), ("p_daily", 0.3))
    run.ranked = [ranked(graph, item, score) for item, score in scores]
    return run


def test_what_happened_in_the_named_week_goes_first_by_the_time_it_speaks_of(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    run = hand_made(make_run, graph, "What did Alice do last week?", now=MONDAY_AFTER)
    assert InSpanFirst().runs(run)
    InSpanFirst()(run)
    # The hike (dated 19 March) goes first; the Lisbon move, told that week of an earlier time, is not in it; Rex's
    # food, told that week, scores under half the first's and stays.
    assert ids(run) == ["p_hike", "p_lisbon", "p_rex", "p_daily"]
    assert [item.score for item in run.ranked] == [1.0, 1.0, 0.8, 0.3]
    assert trace_detail(run, "in span first") == {"spans": 1, "moved_up": ["p_hike"]}


def test_a_time_ago_counted_in_weeks_is_the_week_around_its_day(make_run: MakeRun, graph: MemoryGraph) -> None:
    # Two weeks before 4 April is 21 March; the hike of 19 March is of that week, not of that day.
    run = hand_made(make_run, graph, "What did Alice do two weeks ago?", now=datetime(2024, 4, 4, 9, tzinfo=UTC))
    InSpanFirst()(run)
    assert ids(run) == ["p_hike", "p_lisbon", "p_rex", "p_daily"]
    days = run.request.now and query_spans(run.request.query, run.request.now)
    assert days == [Span(date(2024, 3, 18), date(2024, 3, 25), at=date(2024, 3, 21))]


def test_a_lower_closeness_lets_a_weaker_item_of_the_span_up(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = hand_made(
        make_run, graph, "What did Alice do last week?", recall_config(span_closeness=0.2), now=MONDAY_AFTER
    )
    InSpanFirst()(run)
    assert ids(run) == ["p_hike", "p_daily", "p_lisbon", "p_rex"]  # p_daily by the time it was told (no date)


def test_a_named_month_is_the_latest_one_begun_by_now(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = hand_made(make_run, graph, "What did Alice do in March?", now=JUNE)
    InSpanFirst()(run)
    # March 2024: the hike, and p_rex (told 1 March); Rex's daily food is too weak; Lisbon (February) is not in it.
    assert ids(run) == ["p_rex", "p_hike", "p_lisbon", "p_daily"]
    in_august = hand_made(make_run, graph, "What did Alice do in August?", now=JUNE)  # August 2023: nothing
    InSpanFirst()(in_august)
    assert ids(in_august) == ["p_lisbon", "p_rex", "p_hike", "p_daily"]


def test_no_time_named_no_now_or_off_changes_nothing(make_run: MakeRun, graph: MemoryGraph) -> None:
    for run in (
        hand_made(make_run, graph, "What did Alice do?", now=MONDAY_AFTER),
        hand_made(make_run, graph, "What did Alice do last week?"),
        hand_made(make_run, graph, "What did Alice do last week?", recall_config(span_closeness=0), now=MONDAY_AFTER),
    ):
        assert not InSpanFirst().runs(run)
        InSpanFirst()(run)
        assert ids(run) == ["p_lisbon", "p_rex", "p_hike", "p_daily"] and trace_steps(run) == ["route"]


def test_already_first_moves_nothing(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What did Alice do last week?", recall_config(span_closeness=ON), now=MONDAY_AFTER), Route())
    run.ranked = [ranked(graph, "p_hike", 0.9), ranked(graph, "p_lisbon", 0.8)]
    InSpanFirst()(run)
    assert ids(run) == ["p_hike", "p_lisbon"] and trace_detail(run, "in span first")["moved_up"] == []


def test_the_query_spans_are_its_relative_times_and_named_months() -> None:
    assert query_spans("What did Tom do last week?", JUNE) == [Span(date(2024, 6, 3), date(2024, 6, 10))]
    assert query_spans("Where did I go in March 2023?", JUNE) == [Span(date(2023, 3, 1), date(2023, 4, 1))]
    assert query_spans("What did Tom do last week?", None) == []
    assert named_months("May I ask what you did?", JUNE) == []  # a verb, not the month
    assert named_months("during August", JUNE) == [Span(date(2023, 8, 1), date(2023, 9, 1))]  # not yet this year


def test_through_the_engine_the_hike_of_the_named_week_comes_first(make_engine: MakeEngine) -> None:
    question = request("What did Alice do last week?", now=MONDAY_AFTER)
    on = make_engine(recall_config(span_closeness=ON)).recall(question)
    assert on.items[0].id == "p_hike"
    assert "in span first" in [step.step for step in on.trace]
    off = make_engine(recall_config(span_closeness=0)).recall(question)
    assert off.items[0].id != "p_hike"  # the step is what puts it first
