from datetime import date, datetime

import pytest

from engram.extraction.temporal import resolve_relative_times

SESSION = datetime(2023, 5, 8, 13, 56)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected_text", "expected_day"),
    [
        ("I went to a support group yesterday.", "yesterday (7 May 2023)", date(2023, 5, 7)),
        ("We went camping last Saturday", "last Saturday (6 May 2023)", date(2023, 5, 6)),
        ("I start next month!", "next month (June 2023)", date(2023, 6, 1)),
        ("I painted that last year", "last year (2022)", date(2022, 1, 1)),
        ("Two weeks ago I ran a marathon", "Two weeks ago (the week of 24 April 2023)", date(2023, 4, 24)),
        ("I'll see you tomorrow", "tomorrow (9 May 2023)", date(2023, 5, 9)),
        ("It was 3 days ago", "3 days ago (5 May 2023)", date(2023, 5, 5)),
        ("See you next Friday", "next Friday (12 May 2023)", date(2023, 5, 12)),
        ("last Monday was rough", "last Monday (1 May 2023)", date(2023, 5, 1)),
        ("I've baked twice in the past two weeks", "the past two weeks (since 24 April 2023)", date(2023, 4, 24)),
        ("I read a lot over the last 3 days", "last 3 days (since 5 May 2023)", date(2023, 5, 5)),
        ("I've been busy for the past month", "the past month (since 8 April 2023)", date(2023, 4, 8)),
    ],
)
def test_relative_expressions_get_absolute_dates(text: str, expected_text: str, expected_day: date) -> None:
    resolution = resolve_relative_times(text, SESSION)
    assert expected_text in resolution.text
    assert resolution.earliest == expected_day


def test_text_without_time_expressions_is_unchanged() -> None:
    resolution = resolve_relative_times("Caroline likes painting landscapes.", SESSION)
    assert resolution.text == "Caroline likes painting landscapes."
    assert resolution.earliest is None


def test_no_reference_date_means_no_resolution() -> None:
    assert resolve_relative_times("I went there yesterday", None).text == "I went there yesterday"


def test_the_last_days_of_something_else_are_not_the_days_up_to_now() -> None:
    resolution = resolve_relative_times("I loved the last three days of the trip", SESSION)
    assert resolution.text == "I loved the last three days of the trip" and resolution.earliest is None


def test_earliest_of_several_expressions() -> None:
    resolution = resolve_relative_times("Last year I moved, and yesterday I unpacked", SESSION)
    assert resolution.earliest == date(2022, 1, 1)
    assert "(2022)" in resolution.text and "(7 May 2023)" in resolution.text
