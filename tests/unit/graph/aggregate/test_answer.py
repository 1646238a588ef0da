"""The figure answering an aggregate question: what may count (the words narrowing the counted noun), a count the
memory states itself, a comparison's difference; and a retelling without its own date folding into its event."""

from __future__ import annotations

from datetime import date
from typing import Any

from graph.aggregate.answer import difference, figure, restricted, stated_count
from graph.aggregate.compute import as_match
from graph.aggregate.dedup import Match, fold_duplicates
from graph.aggregate.intent import aggregate_intent, counted_phrase
from graph.aggregate.quantity import Quantity, clock_minutes, stated_counts
from graph.recall.steps.rank import _time

A, B = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]


def row(text: str, similarity: float = 0.7, at: str | None = "2024-03-04T10:00:00+00:00") -> dict[str, Any]:
    return {"id": text, "text": text, "similarity": similarity, "at": at}


def test_the_counted_noun_phrase_is_read_from_the_question() -> None:
    assert counted_phrase("How many Italian restaurants have I tried in my city?") == ("restaurants", ("italian",))
    assert counted_phrase("How many items of clothing do I need to return?") == ("items", ("clothing",))
    assert counted_phrase("How many different types of citrus fruits have I used?") == ("fruits", ("citrus",))
    assert counted_phrase("How many of Emma's recipes have I tried out?") == ("recipes", ("emma",))
    assert counted_phrase("How many projects have I led?") == ("projects", ())
    assert counted_phrase("How many times did I bake something?") == (None, ())
    assert counted_phrase("How many hours did I spend?") == (None, ())


def test_a_match_not_saying_the_narrowing_word_does_not_count() -> None:
    intent = aggregate_intent("How many Italian restaurants have I tried?")
    assert intent is not None
    rows = [row("User tried a new Korean restaurant"), row("User loved the Italian place downtown")]
    assert [r["id"] for r in restricted(rows, intent, min_alone=0.8)] == ["User loved the Italian place downtown"]
    # So close to the question that it counts without the word.
    assert len(restricted([row("User tried a trattoria", similarity=0.85)], intent, min_alone=0.8)) == 1


def test_a_count_the_memory_states_is_its_latest_statement() -> None:
    assert stated_counts("User has completed 4 painting projects", "project") == [4]
    assert stated_counts("User just finished User's 5th project", "project") == [5]
    assert stated_counts("missing the eighth grade graduation ceremony", "ceremon") == []
    assert stated_counts("a project connecting 100 rural villages", "project") == []
    intent = aggregate_intent("How many projects have I completed?")
    assert intent is not None
    rows = [
        row("User finished User's 5th project", at="2024-05-01T10:00:00+00:00"),
        row("User has completed 4 projects", at="2024-03-01T10:00:00+00:00"),
        row("User liked the last project"),
    ]
    assert stated_count(rows, intent, _time) == 5
    assert stated_count([row("User liked the last project")], intent, _time) is None
    found = figure(intent, rows, [], 2, None, None, _time)
    assert found is not None and (found.value, found.source) == (5.0, "stated")


def test_a_comparison_is_the_difference_of_two_amounts_or_two_times() -> None:
    usd = [Match("goal", "aimed to raise $200", None, A, Quantity(200, "USD", "$200")),
           Match("raised", "raised $250", None, B, Quantity(250, "USD", "$250"))]  # fmt: skip
    found = difference(usd)
    assert found is not None and (found.value, found.unit) == (50.0, "USD")
    assert clock_minutes("User wakes up at 6:00 AM") == 360 and clock_minutes("in 2023") is None
    times = [Match("fri", "wakes up at 6:00 AM on Fridays", None, A, None),
             Match("week", "wakes up at 6:30 AM on weekdays", None, B, None)]  # fmt: skip
    found = difference(times)
    assert found is not None and (found.value, found.unit) == (30.0, "minute")
    assert difference(times[:1]) is None


def test_a_comparison_takes_the_amounts_of_its_two_sides() -> None:
    intent = aggregate_intent("How much more expensive was the taxi ride compared to the train fare?")
    assert intent is not None and intent.sides == (("expensive", "taxi", "ride"), ("train", "fare"))
    events = [Match("bus", "the bus fare was $2", None, A, Quantity(2, "USD", "$2")),
              Match("taxi", "the taxi ride cost $12", None, B, Quantity(12, "USD", "$12")),
              Match("train", "the train fare is $5", None, A, Quantity(5, "USD", "$5"))]  # fmt: skip
    found = difference(events, intent.sides)
    assert found is not None and found.value == 7.0  # taxi - train, not the two closest (bus and taxi: 10)
    unsided = difference(events)
    assert unsided is not None and unsided.value == 10.0


def test_a_retelling_in_the_same_conversation_without_its_own_date_is_the_same_event() -> None:
    rachel = frozenset({"Rachel"})
    told = Match("told", "Rachel's graduation two weeks ago", date(2024, 3, 1), A, None, "s1", True, rachel)
    again = Match("again", "Rachel's graduation reminded User", date(2024, 3, 15), B, None, "s1", False, rachel)
    elsewhere = Match("other", "Rachel's graduation reminded User", date(2024, 3, 15), B, None, "s2", False, rachel)
    assert [e.id for e in fold_duplicates([told, again], 0.9, same_source=True)] == ["told"]
    assert [e.id for e in fold_duplicates([told, elsewhere], 0.9, same_source=True)] == ["told", "other"]
    dated = Match("dated", "Rachel's graduation", date(2024, 3, 15), B, None, "s1", True, rachel)
    assert [e.id for e in fold_duplicates([told, dated], 0.9, same_source=True)] == ["told", "dated"]
    # Naming nobody in common: another event (a party to host, after one attended).
    hosting = Match("host", "a party User is hosting soon", date(2024, 3, 15), B, None, "s1", False, frozenset())
    assert [e.id for e in fold_duplicates([told, hosting], 0.9, same_source=True)] == ["told", "host"]


def test_the_names_a_match_mentions_leave_out_its_speakers_and_sentence_starts() -> None:
    row = {"id": "p", "text": "By the way, User attended Rachel's graduation", "at": None, "embedding": A,
           "provenance": [{"speaker": "User", "source_id": "s1"}]}  # fmt: skip
    assert as_match(row, None, _time).names == frozenset({"Rachel"})
