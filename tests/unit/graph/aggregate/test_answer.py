"""The figure answering an aggregate question: what may count (the words narrowing the counted noun), a count the
memory states itself, a comparison's difference; and a retelling without its own date folding into its event."""

from __future__ import annotations

from datetime import date
from typing import Any

from graph.aggregate.answer import difference, figure, kinds_count, parts_sum, restricted, stated_count, worded
from graph.aggregate.compute import as_match
from graph.aggregate.dedup import Match, fold_duplicates
from graph.aggregate.intent import aggregate_intent, counted_phrase
from graph.aggregate.quantity import Quantity, clock_minutes, stated_counts
from graph.recall.hydration import item_time

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
    assert stated_count(rows, intent, item_time) == 5
    assert stated_count([row("User liked the last project")], intent, item_time) is None
    found = figure(intent, rows, [], 2, None, None, item_time)
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
    assert as_match(row, None, item_time).names == frozenset({"Rachel"})


def test_a_count_of_times_the_memory_states_is_its_latest_statement() -> None:
    intent = aggregate_intent("How many times have I tried making a Negroni at home?")
    assert intent is not None
    rows = [
        row("User has tried making a Negroni at home 10 times now", at="2024-05-01T10:00:00+00:00"),
        row("User has tried making it at home 5 times now", at="2024-03-01T10:00:00+00:00"),
        row("User makes a Negroni 2 times a week"),  # a rate, not a count
    ]
    assert stated_count(rows, intent, item_time) == 10
    # Saying "the first time" of another thing is no count of times: the events are counted.
    first = [row("User used the new oven for the first time to bake cookies")]
    bake = aggregate_intent("How many times did I bake something?")
    assert bake is not None and stated_count(first, bake, item_time) is None
    found = figure(bake, first, [], 4, None, None, item_time)
    assert found is not None and (found.value, found.source) == (4.0, "events")


def test_a_count_of_items_adds_each_kinds_latest_count() -> None:
    intent = aggregate_intent("How many rare items do I have in total?")
    assert intent is not None and intent.head == "items"
    rows = [
        row("User has 12 rare figurines", at="2024-03-01T10:00:00+00:00"),
        row("User has 10 rare figurines now", at="2024-04-01T10:00:00+00:00"),
        row("User's collection of 57 rare records"),
        row("User collects rare books, a collection of 5 books"),
        row("User bought 3 new shelves for them"),  # not narrowed by "rare": not a kind counted
    ]
    assert kinds_count(rows, intent, item_time) == 10 + 57 + 5
    found = figure(intent, rows, [], 4, None, None, item_time)
    assert found is not None and (found.value, found.source) == (72.0, "stated")
    # A specific head is counted as itself, never by other kinds.
    projects = aggregate_intent("How many rare projects have I done?")
    assert projects is not None and kinds_count(rows, projects, item_time) is None


def test_a_sum_of_two_named_things_adds_one_amount_each() -> None:
    intent = aggregate_intent(
        "What is the total amount I spent on the designer handbag and high-end skincare products?"
    )
    assert intent is not None and intent.kind == "sum"
    events = [Match("bag", "User bought a Coach handbag for $800", None, A, Quantity(800, "USD", "$800")),
              Match("watch", "User saw a watch for $5,000", None, B, Quantity(5000, "USD", "$5,000")),
              Match("skin", "User spent $500 on high-end products", None, A, Quantity(500, "USD", "$500"))]  # fmt: skip
    found = parts_sum(events, intent)
    assert found is not None and (found.value, found.unit, found.source) == (1300.0, "USD", "sum")
    # One of the two things has no amount of its own: no sum of named things (the plain sum answers).
    assert parts_sum(events[:2], intent) is None
    mixed = [events[0], Match("skin", "User spent 500 EUR on skincare", None, A, Quantity(500, "EUR", "500 EUR"))]
    assert parts_sum(mixed, intent) is None


def test_a_match_saying_most_of_one_named_thing_is_worded() -> None:
    intent = aggregate_intent(
        "What is the total amount I spent on the designer handbag and high-end skincare products?"
    )
    assert intent is not None
    rows = [{"text": "User invested $500 in some high-end skincare", "term_share": 0.3}]
    assert worded(rows, intent, 0.6)
    assert not worded([{"text": "User likes handbags", "term_share": 0.1}], intent, 0.6)
