"""The quantity parser: an amount with its unit, or nothing where no unit is stated."""

from __future__ import annotations

import pytest

from graph.aggregate.quantity import Quantity, counted_kinds, quantities, quantity_in, stated_counts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I spent $1,300 on the bag", [(1300.0, "USD")]),
        ("paid 50 dollars for lunch and €20 for the taxi", [(50.0, "USD"), (20.0, "EUR")]),
        ("we raised $2.5k for the shelter", [(2500.0, "USD")]),
        ("ran 5 km this morning, then 3.5 miles on Sunday", [(5.0, "km"), (3.5, "mile")]),
        ("played for two hours and 30 minutes", [(2.0, "hour"), (30.0, "minute")]),
        ("an hour of yoga", [(1.0, "hour")]),
        ("I drank 3 cups of coffee", [(3.0, "cup")]),
        ("got a 20% discount", [(20.0, "%")]),
        ("read 40 pages before bed", [(40.0, "page")]),
    ],
)
def test_an_amount_is_read_with_its_unit(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(q.value, q.unit) for q in quantities(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "I went running with Sam",  # no number
        "We met at 5 pm on 3 May",  # a clock time and a date
        "I have 3 kids",  # a number without a unit is not an amount
        "a day at the beach, an apple a day",  # 'a' / 'an' before anything but a time is no amount
        "I ran a 10k",  # '10k' is a race's name as often as a distance
    ],
)
def test_no_amount_where_none_is_stated(text: str) -> None:
    assert quantities(text) == []


def test_minutes_add_to_hours_through_their_common_unit() -> None:
    assert Quantity(30, "minute", "30 minutes").common() == Quantity(0.5, "hour", "30 minutes")
    assert Quantity(5, "km", "5 km").common().unit == "km"


def test_one_amount_or_none() -> None:
    assert quantity_in("I spent $40 on gas") == Quantity(40.0, "USD", "$40")
    assert quantity_in("I spent $40 on gas and $15 on snacks") is None  # which one counts is not a rule's guess
    assert quantity_in("I spent $40 on gas, $40 in all") == Quantity(40.0, "USD", "$40")  # the same amount twice
    # Only the units the question asks in ("how many hours"): the distance of a run is not its time.
    assert quantity_in("ran 5 km in 30 minutes", {"hour"}) == Quantity(30.0, "minute", "30 minutes")
    assert quantity_in("ran 5 km", {"hour"}) is None


def test_a_rate_or_a_first_time_is_no_count_of_times() -> None:
    assert stated_counts("User has tried making it at home 10 times now", "time", ordinals=False) == [10]
    assert stated_counts("User runs 3 times a week", "time", ordinals=False) == []
    assert stated_counts("User used the convection setting for the first time", "time", ordinals=False) == []
    assert stated_counts("User finished User's 5th project", "project") == [5]


def test_counts_of_kinds_narrowed_by_a_word() -> None:
    assert counted_kinds("User has 12 rare figurines and 3 cats", ["rare"]) == [("figurines", 12)]
    # The narrowing word said of the kind elsewhere in the text.
    text = "User has been collecting rare books and has a small collection of 5 books"
    assert counted_kinds(text, ["rare"]) == [("books", 5)]
    assert counted_kinds("User has 3 cats and 2 dogs", ["rare"]) == []
    assert counted_kinds("User paid $25 for rare coins", ["rare"]) == []
