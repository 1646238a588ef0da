"""Retellings fold into one event; the events lead the items one source at a time; the answer says why a figure is
missing."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from graph.aggregate.compute import as_match, events_param, leading, periods, result, stems, telling, usual_unit
from graph.aggregate.dedup import Match, fold_duplicates
from graph.aggregate.intent import aggregate_intent
from graph.aggregate.quantity import Quantity
from graph.provenance import Provenance
from graph.recall.hydration import item_time, provenance_of

RUN = [1.0, 0.0, 0.0]
RUN_AGAIN = [0.99, 0.1, 0.0]  # cosine ~0.995 with RUN
SHOPPING = [0.0, 1.0, 0.0]
MONDAY, TUESDAY = date(2024, 3, 4), date(2024, 3, 5)


def match(id_: str, vector: list[float], day: date | None, quantity: Quantity | None = None, src: str = "s") -> Match:
    return Match(id_, id_, day, vector, quantity, src)


def km(value: float) -> Quantity:
    return Quantity(value, "km", f"{value} km")


def test_the_same_event_told_twice_counts_once() -> None:
    events = fold_duplicates(
        [match("run", RUN, MONDAY, km(5)), match("retold", RUN_AGAIN, MONDAY, km(5)), match("shop", SHOPPING, MONDAY)],
        threshold=0.9,
    )
    assert [e.id for e in events] == ["run", "shop"]
    assert events[0].duplicates == ["retold"]


def test_the_same_words_on_another_day_are_another_event() -> None:
    events = fold_duplicates([match("mon", RUN, MONDAY, km(5)), match("tue", RUN, TUESDAY, km(5))], threshold=0.9)
    assert [e.id for e in events] == ["mon", "tue"]


def test_a_different_amount_is_a_different_event() -> None:
    events = fold_duplicates([match("five", RUN, MONDAY, km(5)), match("ten", RUN, MONDAY, km(10))], threshold=0.9)
    assert len(events) == 2


def test_one_conversation_tells_one_event_of_a_day_in_many_statements() -> None:
    told = [match("party", RUN, MONDAY, src="chat"), match("menu", SHOPPING, MONDAY, src="chat")]
    assert len(fold_duplicates(told, threshold=0.9, same_source=True)) == 1
    assert len(fold_duplicates(told, threshold=0.9, same_source=False)) == 2
    other_day = [match("mon", RUN, MONDAY, src="chat"), match("tue", SHOPPING, TUESDAY, src="chat")]
    assert len(fold_duplicates(other_day, threshold=0.9, same_source=True)) == 2


def test_a_retelling_lends_its_amount_to_an_event_stating_none() -> None:
    events = fold_duplicates([match("run", RUN, MONDAY), match("retold", RUN_AGAIN, MONDAY, km(5))], threshold=0.9)
    assert len(events) == 1 and events[0].quantity == km(5)
    assert events_param(events) == [{"id": "run", "value": 5.0, "unit": "km"}]


def test_the_events_lead_one_source_at_a_time() -> None:
    events = [match("a1", RUN, None, src="a"), match("a2", RUN, None, src="a"), match("b1", RUN, None, src="b")]
    assert leading(events, 10) == ["a1", "b1", "a2"]
    assert leading(events, 2) == ["a1", "b1"]
    assert leading(events, 10, frozenset({"a"})) == ["b1"]  # only the sources the ranking left out


def test_only_events_saying_most_of_the_target_lead() -> None:
    events = [match("loose", RUN, None), match("worded", RUN, None), match("close", RUN, None)]
    rows = {
        "loose": {"term_share": 0.25, "similarity": 0.7},
        "worded": {"term_share": 0.75, "similarity": 0.7},
        "close": {"term_share": 0.0, "similarity": 0.85},
    }
    assert [e.id for e in telling(events, rows, min_share=0.6, min_alone=0.8)] == ["worded", "close"]


def test_an_event_stating_an_amount_leads_a_sum_whatever_its_words() -> None:
    # "Hyper Light Drifter took me 5 hours": no word of "hours spent playing games" but "games", yet its 5 hours are
    # part of the sum, so the caller should read it; without an amount, the words decide as before.
    events = [match("hours", RUN, None, km(5)), match("loose", RUN, None)]
    rows = {"hours": {"term_share": 0.33, "similarity": 0.67}, "loose": {"term_share": 0.33, "similarity": 0.67}}
    assert [e.id for e in telling(events, rows, min_share=0.4, min_alone=0.8, amounts=True)] == ["hours"]
    assert telling(events, rows, min_share=0.4, min_alone=0.8) == []  # a count: an amount is no reason


def test_stems_find_the_singular() -> None:
    assert stems(["kits", "parties", "glass", "baked"]) == [["kit"], ["part"], ["glass"], ["bak"]]
    assert stems(["running", "spend"]) == [["run", "ran"], ["spend", "spent"]]  # an irregular verb's past form too


def _row(id_: str, text: str, at: str | None = "2024-03-04T08:00:00Z") -> dict[str, Any]:
    proof = {"id": f"ep-{id_}", "external_id": id_, "source_id": "src", "speaker": "Ana", "text": text,
             "occurred_at": at}  # fmt: skip
    return {"id": id_, "text": text, "similarity": 0.8, "term_share": 1.0, "at": at, "embedding": RUN,
            "provenance": [proof]}  # fmt: skip


def _answer(question: str, rows: list[dict[str, Any]], tally: dict[str, Any]) -> Any:
    intent = aggregate_intent(question)
    assert intent is not None
    events = [as_match(row, None, item_time) for row in rows]
    return result(intent, rows, events, tally, item_time, provenance_of)


def test_no_match_gives_no_number() -> None:
    answer = _answer("How much did I spend on the car in total?", [], {"count": 0, "unquantified": 0, "units": [],
                     "periods": []})  # fmt: skip
    assert answer.count is None and answer.sum is None and answer.reason == "no memory matches the question"


def test_no_amount_stated_is_said_not_guessed() -> None:
    rows = [_row("p1", "Ana washed the car")]
    tally = {"count": 1, "unquantified": 1, "units": [], "periods": []}
    answer = _answer("How much did I spend on the car in total?", rows, tally)
    assert answer.count == 1 and answer.sum is None
    assert answer.reason == "no quantity stated in the matching memories"
    told = datetime(2024, 3, 4, 8, tzinfo=UTC)
    proof = Provenance(
        episode_id="ep-p1",
        external_id="p1",
        source_id="src",
        speaker="Ana",
        text="Ana washed the car",
        occurred_at=told,
    )
    assert answer.items[0].provenance == [proof]


def test_mixed_units_are_listed_apart() -> None:
    rows = [_row("p1", "Ana paid $40 for tyres"), _row("p2", "Ana paid €30 for the wash")]
    units = [{"unit": "EUR", "sum": 30.0, "count": 1}, {"unit": "USD", "sum": 40.0, "count": 1}]
    answer = _answer("How much did I spend on the car in total?", rows, {"count": 2, "unquantified": 0, "units": units,
                     "periods": []})  # fmt: skip
    assert answer.sum is None and answer.unit is None
    assert [(u.unit, u.sum) for u in answer.units] == [("EUR", 30.0), ("USD", 40.0)]
    assert answer.reason == "amounts in different units, listed apart: EUR, USD"


def test_periods_fold_their_units() -> None:
    rows = [
        {"period": "2024-03-04", "unit": "cup", "count": 2, "sum": 5.0},
        {"period": "2024-03-04", "unit": None, "count": 1, "sum": 0},
        {"period": "2024-02-26", "unit": "cup", "count": 1, "sum": 2.0},
    ]
    folded = periods(rows)
    assert [(p.start, p.count, [(s.unit, s.sum) for s in p.sums]) for p in folded] == [
        (date(2024, 2, 26), 1, [("cup", 2.0)]),
        (date(2024, 3, 4), 3, [("cup", 5.0)]),
    ]


def test_a_count_gives_no_sum_it_did_not_ask_for() -> None:
    rows = [_row("p1", "Ana trains four days a week")]
    units = [{"unit": "day", "sum": 4.0, "count": 1}]
    tally = {"count": 1, "unquantified": 0, "units": units, "periods": []}
    answer = _answer("How many marathons did I run?", rows, tally)
    assert answer.count == 1 and answer.sum is None and answer.unit is None
    assert [(u.unit, u.sum) for u in answer.units] == [("day", 4.0)] and answer.reason is None


def test_a_statement_of_several_units_is_read_in_the_usual_one() -> None:
    intent = aggregate_intent("How much more expensive was the taxi ride compared to the train fare?")
    assert intent is not None
    rows = [
        {"id": "taxi", "text": "User missed the train by 5 minutes and took a taxi, which cost $12", "at": None,
         "embedding": [1.0, 0.0], "provenance": []},
        {"id": "train", "text": "User's train fare is $6", "at": None, "embedding": [0.0, 1.0], "provenance": []},
        {"id": "total", "text": "The month's commute cost $240", "at": None, "embedding": [0.0, 1.0], "provenance": []},
    ]  # fmt: skip
    usual = usual_unit(intent, rows)
    assert usual == {"USD"}
    taxi = as_match(rows[0], None, item_time, usual)
    assert taxi.quantity is not None and (taxi.quantity.value, taxi.quantity.unit) == (12.0, "USD")
    assert as_match(rows[0], None, item_time).quantity is None  # without it: which amount counts is not guessed
    # A statement of one amount keeps its unit: mixed units stay listed apart.
    km = {"id": "km", "text": "User ran 5 km", "at": None, "embedding": [1.0, 0.0], "provenance": []}
    kept = as_match(km, None, item_time, usual).quantity
    assert kept is not None and kept.unit == "km"
    # No unit most usual (a tie), or a count: none.
    assert usual_unit(intent, [rows[1], km]) is None
    count = aggregate_intent("How many times did I take a taxi?")
    assert count is not None and usual_unit(count, rows) is None
