"""The recurring time an utterance speaks of, and its earlier occasions on the user's clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from graph.recall.associate.recurring import recurrence

SHANGHAI = timezone(timedelta(hours=8))
NOW = datetime(2024, 9, 4, 21, 30, tzinfo=SHANGHAI)  # a Wednesday evening


@pytest.mark.parametrize(
    ("utterance", "weekdays", "hours"),
    [
        ("It's Wednesday night again, and I'm wondering what's left in the fridge.", {2}, (19, 24)),
        ("Sunday mornings are for the market", {6}, (5, 12)),
        ("Planning something for the weekend", {5, 6}, None),
        ("Tonight I want to relax", {2}, (19, 24)),  # now's weekday
        ("Every day after work I go running", set(), (17, 24)),
    ],
)
def test_reads_the_weekday_and_the_part_of_the_day(
    utterance: str, weekdays: set[int], hours: tuple[int, int] | None
) -> None:
    found = recurrence(utterance, NOW)
    assert found is not None
    assert found.weekdays == frozenset(weekdays)
    assert found.hours == hours


def test_an_utterance_naming_no_time_has_none() -> None:
    assert recurrence("The client asked for another revision; I'm so frustrated.", NOW) is None
    assert recurrence("tonight", None) is None  # "tonight" needs now


def test_occasions_are_the_earlier_same_weekday_evenings_on_the_users_clock() -> None:
    found = recurrence("Wednesday night again", NOW)
    assert found is not None
    windows = found.windows(NOW, weeks=3)
    # This Wednesday (started before now) and the three before it, newest first.
    assert [w.start for w in windows] == [
        datetime(2024, 9, 4, 19, tzinfo=SHANGHAI) - timedelta(weeks=n) for n in range(4)
    ]
    assert all(w.start.weekday() == 2 and w.start.utcoffset() == timedelta(hours=8) for w in windows)
    assert all(w.end - w.start == timedelta(hours=5) for w in windows)
    assert all(w.start < NOW for w in windows)
