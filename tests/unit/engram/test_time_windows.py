"""The time windows a question names (engram/time_windows.py): Duckling's reading, as whole days [first, end), with
the wrapper's mends for a memory, which speaks of the past."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from engram.extraction.temporal import Span
from engram.time_windows import question_spans

WEDNESDAY = datetime(2024, 10, 16, 18, tzinfo=UTC)
MONDAY = datetime(2026, 3, 2, 9, tzinfo=UTC)


def days(first: date, end: date, at: date | None = None) -> Span:
    return Span(first, end, at=at)


def d(month: int, day: int, year: int = 2024) -> date:
    return date(year, month, day)


ASKED_ON_WEDNESDAY = {
    # N weeks ago: the week around that day (three days either side), dating the day; a fortnight is two weeks.
    "Which concert did I go to three weeks ago?": days(d(9, 22), d(9, 29), at=d(9, 25)),
    "Where did I hike a fortnight ago?": days(d(9, 29), d(10, 6), at=d(10, 2)),
    "What did I do a couple of weeks ago?": days(d(9, 29), d(10, 6), at=d(10, 2)),
    "What did I buy four months ago?": days(d(6, 1), d(7, 2), at=d(6, 16)),  # half a month either side
    "Where was I three days ago?": days(d(10, 13), d(10, 14), at=d(10, 13)),
    "Where did I live two years ago?": days(d(4, 17, 2022), d(4, 17, 2023), at=d(10, 16, 2022)),
    # The calendar's weeks and weekends.
    "What did I read last week?": days(d(10, 7), d(10, 14)),
    "What did I cook the week before last?": days(d(9, 30), d(10, 7)),
    "Where did I go last weekend?": days(d(10, 12), d(10, 14)),
    "Where did I go on the weekend?": days(d(10, 12), d(10, 14)),
    "Who did I see over the weekend?": days(d(10, 12), d(10, 14)),
    "Where did I go the weekend before last?": days(d(10, 5), d(10, 7)),
    "Where did I go two weekends ago?": days(d(10, 5), d(10, 7)),
    "What did I paint the month before last?": days(d(8, 1), d(9, 1)),
    "Where did I travel the summer before last?": days(d(6, 21, 2023), d(9, 24, 2023)),
    "Where did I have dinner last Tuesday?": days(d(10, 15), d(10, 16), at=d(10, 15)),
    "Where did I have dinner on Tuesday?": days(d(10, 15), d(10, 16), at=d(10, 15)),
    "Who called me yesterday?": days(d(10, 15), d(10, 16), at=d(10, 15)),
    "What did I eat last night?": days(d(10, 15), d(10, 16), at=d(10, 15)),
    "What did I do the other day?": days(d(10, 9), d(10, 16)),  # the week before today
    # Up to today.
    "What did I bake in the past two weeks?": days(d(10, 2), d(10, 17)),
    "Which parties did I go to in the past month?": days(d(9, 16), d(10, 17)),
    "What did I watch in the last few days?": days(d(10, 13), d(10, 17)),
    # Months, parts of months, seasons, holidays, years: the latest begun by now.
    "Which shoes did I clean last month?": days(d(9, 1), d(10, 1)),
    "Where did I go in March?": days(d(3, 1), d(4, 1)),
    "Where did I go in November?": days(d(11, 1, 2023), d(12, 1, 2023)),
    "Where did I go in May 2023?": days(d(5, 1, 2023), d(6, 1, 2023)),
    "Where did I hike in early July?": days(d(7, 1), d(7, 11)),
    "Where did I hike in mid-July?": days(d(7, 11), d(7, 21)),
    "Which concert did I go to in late May?": days(d(5, 21), d(6, 1)),
    "What did I do at the start of September?": days(d(9, 1), d(9, 11)),
    "What did I do at the end of last month?": days(d(9, 21), d(10, 1)),
    "What did I do late last year?": days(d(9, 1, 2023), d(1, 1, 2024)),
    "Where was I over Christmas?": days(d(12, 24, 2023), d(12, 27, 2023), at=d(12, 25, 2023)),
    "Where was I at Easter?": days(d(3, 31), d(4, 1), at=d(3, 31)),
    "Where did I go last summer?": days(d(6, 21), d(9, 24)),
    "Where did I go this summer?": days(d(6, 21), d(9, 24)),
    "Which city did I visit in 2022?": days(d(1, 1, 2022), d(1, 1, 2023)),
}

ASKED_ON_MONDAY = {
    "Which concert did I go to three weeks ago?": days(d(2, 6, 2026), d(2, 13, 2026), at=d(2, 9, 2026)),
    "What did I read last week?": days(d(2, 23, 2026), d(3, 2, 2026)),
    "What did I cook the week before last?": days(d(2, 16, 2026), d(2, 23, 2026)),
    "Where did I go on the weekend?": days(d(2, 28, 2026), d(3, 2, 2026)),
    "Where did I go the weekend before last?": days(d(2, 21, 2026), d(2, 23, 2026)),
    "Where did I have dinner last Tuesday?": days(d(2, 24, 2026), d(2, 25, 2026), at=d(2, 24, 2026)),
    "Where did I run on Monday?": days(d(2, 23, 2026), d(2, 24, 2026), at=d(2, 23, 2026)),  # not today
    "What did I do the other day?": days(d(2, 23, 2026), d(3, 2, 2026)),
    "Where did I hike in early July?": days(d(7, 1, 2025), d(7, 11, 2025)),
    "Which concert did I go to in late May?": days(d(5, 21, 2025), d(6, 1, 2025)),
    "What did I do in late February?": days(d(2, 21, 2026), d(3, 1, 2026)),
    "Where did I go in March?": days(d(3, 1, 2026), d(4, 1, 2026)),  # begun today
    "Where was I over Christmas?": days(d(12, 24, 2025), d(12, 27, 2025), at=d(12, 25, 2025)),
    "Where did I go last summer?": days(d(6, 21, 2025), d(9, 24, 2025)),
    "Where did I ski this winter?": days(d(12, 21, 2025), d(3, 21, 2026)),
    "Which city did I visit in 2022?": days(d(1, 1, 2022), d(1, 1, 2023)),
    "What did I buy four months ago?": days(d(10, 18, 2025), d(11, 18, 2025), at=d(11, 2, 2025)),
    "Which shoes did I clean last month?": days(d(2, 1, 2026), d(3, 1, 2026)),
}


@pytest.mark.parametrize(("question", "span"), ASKED_ON_WEDNESDAY.items())
def test_asked_on_a_wednesday(question: str, span: Span) -> None:
    assert question_spans(question, WEDNESDAY) == [span]


@pytest.mark.parametrize(("question", "span"), ASKED_ON_MONDAY.items())
def test_asked_on_a_monday(question: str, span: Span) -> None:
    assert question_spans(question, MONDAY) == [span]


def test_explicit_futures_stay_in_the_future() -> None:
    assert question_spans("What am I doing tomorrow?", WEDNESDAY) == [days(d(10, 17), d(10, 18), at=d(10, 17))]
    assert question_spans("Where am I going next month?", WEDNESDAY) == [days(d(11, 1), d(12, 1))]


def test_each_time_named_in_order() -> None:
    assert question_spans("Did I swim last week or in early July?", WEDNESDAY) == [
        days(d(10, 7), d(10, 14)),
        days(d(7, 1), d(7, 11)),
    ]
    assert question_spans("What did I do yesterday and three weekends ago?", WEDNESDAY) == [
        days(d(10, 15), d(10, 16), at=d(10, 15)),
        days(d(9, 28), d(9, 30)),
    ]


@pytest.mark.parametrize(
    "question",
    [
        "",
        "   ",
        "blah",
        "May I ask what you did?",  # a verb, not the month
        "Where do I live now?",  # the present, not a window
        "What do I eat in the morning?",  # a time of day
        "What do I do on Mondays?",  # a habit
        "What do I do every weekend?",
        "What was the first concert I went to?",  # an ordinal, not the first of the month
        "Who is April?",  # a name
        "What did I say about the march for climate?",  # not the month
        "What was my plan for the day?",
        "What is my partner's name?",
    ],
)
def test_no_time_named_no_window(question: str) -> None:
    assert question_spans(question, WEDNESDAY) == []


def test_a_naive_now_is_read_as_its_own_wall_clock() -> None:
    assert question_spans("Who called me yesterday?", datetime(2024, 10, 16, 23, 30)) == [
        days(d(10, 15), d(10, 16), at=d(10, 15))
    ]
