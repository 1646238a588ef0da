"""The aggregate reading of a question's form: count, sum, compare, list; the period; what is counted."""

from __future__ import annotations

import pytest

from graph.aggregate.intent import aggregate_intent


@pytest.mark.parametrize(
    ("question", "kind", "period", "unit"),
    [
        ("How many times did I go running this month?", "count", None, None),
        ("How often did I visit my parents?", "count", None, None),
        ("What is the number of books I borrowed?", "count", None, None),
        ("How much did I spend on the car in total?", "sum", None, None),
        ("How many hours have I spent playing games in total?", "sum", None, "hour"),
        ("How many miles did I cycle?", "sum", None, "mile"),
        ("How much coffee did I drink per week?", "sum", "week", None),
        ("Did I drink more coffee this week than last?", "compare", "week", None),
        ("How much more did I pay for the hotel compared to the flight?", "compare", None, None),
        ("List all the restaurants I went to", "list", None, None),
    ],
)
def test_the_form_of_an_aggregate_question(question: str, kind: str, period: str | None, unit: str | None) -> None:
    intent = aggregate_intent(question)
    assert intent is not None
    assert (intent.kind, intent.period, intent.unit) == (kind, period, unit)


@pytest.mark.parametrize(
    "question",
    [
        "What is the name of my cat?",
        "Where did I go running?",
        "How much does my cat weigh?",  # a state, not an amount over time
        "How many days passed between the workshop and the planting?",  # a time between two dates
        "How many weeks ago did I meet my aunt?",
    ],
)
def test_an_ordinary_question_is_not_aggregated(question: str) -> None:
    assert aggregate_intent(question) is None


def test_the_target_is_the_question_without_its_frame() -> None:
    intent = aggregate_intent("How many times did I go running this month?")
    assert intent is not None
    assert "running" in intent.terms
    assert "how" not in intent.target.lower().split() and "times" not in intent.terms


def test_units_numbers_and_times_are_not_what_is_counted() -> None:
    intent = aggregate_intent("How many km did I swim in the past two weeks?")
    assert intent is not None and intent.terms == ("swim",) and intent.unit == "km"


def test_how_to_count_is_not_what_is_counted() -> None:
    # "different types of" says how to count citrus fruits: a memory saying "different types of milk" is no match.
    intent = aggregate_intent("How many different types of citrus fruits have I used in my cocktail recipes?")
    assert intent is not None and intent.terms == ("citrus", "fruits", "used", "cocktail", "recipes")
    assert (intent.head, intent.restrictors) == ("fruits", ("citrus",))


def test_a_name_is_not_what_is_counted() -> None:
    intent = aggregate_intent("How many bowls did Maya make for Ana?")
    assert intent is not None and intent.terms == ("bowls",)


def test_two_things_joined_by_and_are_read_apart() -> None:
    intent = aggregate_intent(
        "What is the total amount I spent on the designer handbag and high-end skincare products?"
    )
    assert intent is not None and intent.parts == (("designer", "handbag"), ("high-end", "skincare", "products"))
    # Names are kept: a Facebook campaign is not an Instagram one.
    joined = aggregate_intent("What was the total number of people reached by my Facebook campaign and Instagram post?")
    assert joined is not None and joined.parts == (("facebook", "campaign"), ("instagram", "post"))
    single = aggregate_intent("How much did I spend on the car in total?")
    assert single is not None and single.parts == ()


def test_a_count_of_times_is_told_from_a_count_of_things() -> None:
    times = aggregate_intent("How many times have I tried making a Negroni at home?")
    assert times is not None and times.times and times.head is None
    things = aggregate_intent("How many projects have I led?")
    assert things is not None and not things.times
