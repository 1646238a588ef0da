"""Resolve relative time expressions ("yesterday", "last Saturday", "next month", "the past two weeks") against a
reference date.

The absolute date is written into the text right after the expression, e.g.
"went to a support group yesterday (7 May 2023)", and the earliest resolved date is returned so the
proposition can carry it as `valid_from`. Each expression also covers a span of days, as wide as it says: a day, a
weekend, a calendar month ("last month"), the days up to the reference ("the past two weeks"); recall reads a
query's times as those spans (graph/recall/steps/when.py).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a couple": 2,
    "a few": 3, "few": 3, "several": 3,
}  # fmt: skip
_WEEKDAYS = {name.lower(): index for index, name in enumerate(calendar.day_name)}
_NUMBER = (
    r"(?P<n>\d{1,2}|a couple of|a couple|a few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)"
)
_WEEKDAY = r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(rf"\b{pattern}\b", re.IGNORECASE))
    for kind, pattern in [
        ("ago", rf"{_NUMBER} (?P<unit>day|week|month|year)s? ago"),
        # Not "the last three days of the trip": those are the trip's, not the days up to the reference.
        ("past", rf"(?:past|last) {_NUMBER} (?P<unit>day|week|month|year)s(?!\s+of\b)"),
        ("last_night", r"last night"),
        ("yesterday", r"(?:the day before yesterday|yesterday)"),
        ("today", r"(?:today|tonight|this morning|this afternoon|this evening)"),
        ("tomorrow", r"tomorrow"),
        ("weekday", rf"(?P<rel>last|this past|next|this coming) {_WEEKDAY}"),
        ("weekend", r"(?P<rel>last|this past|next|this) weekend"),
        ("period", r"(?P<rel>last|next|this|past) (?P<unit>week|month|year)"),
    ]
]


@dataclass(frozen=True)
class Span:
    """The days an expression covers, [first, end), and the day it dates where that is not the first ("two weeks
    ago" covers that week and dates its day)."""

    first: date
    end: date
    at: date | None = None

    @property
    def dated(self) -> date:
        return self.at or self.first


@dataclass(frozen=True)
class Resolution:
    text: str
    dates: list[date]  # the day each expression dates
    spans: list[Span] = field(default_factory=list)  # each expression's days

    @property
    def earliest(self) -> date | None:
        return min(self.dates) if self.dates else None


def _fmt(day: date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def _shift_months(day: date, months: int) -> date:
    month_index = day.year * 12 + day.month - 1 + months
    year, month = divmod(month_index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


# How far either side of its day "N <unit>s ago" reaches: a count of weeks is not exact to the day.
_AGO_HALF_WIDTH = {"day": 0, "week": 3, "month": 15, "year": 182}


def _day(day: date) -> Span:
    return Span(day, day + timedelta(days=1))


def _month(day: date) -> Span:
    first = day.replace(day=1)
    return Span(first, _shift_months(first, 1))


def _year(year: int) -> Span:
    return Span(date(year, 1, 1), date(year + 1, 1, 1))


def _back(ref: date, n: int, unit: str) -> date:
    if unit == "day":
        return ref - timedelta(days=n)
    if unit == "week":
        return ref - timedelta(weeks=n)
    if unit == "month":
        return _shift_months(ref, -n)
    return date(ref.year - n, ref.month, min(ref.day, 28))


def _since(first: date, ref: date) -> tuple[str, Span]:
    return f"since {_fmt(first)}", Span(first, ref + timedelta(days=1))


def _count(groups: dict[str, str]) -> int:
    return int(groups["n"]) if groups["n"].isdigit() else _NUMBERS[groups["n"]]


def _resolve(kind: str, match: re.Match[str], ref: date) -> tuple[str, Span] | None:
    """The label written after the expression, and the days it covers (with the day it dates: `Span.dated`)."""
    groups = {k: (v.lower() if v else v) for k, v in match.groupdict().items()}
    if kind == "ago":  # that day, as exact as the unit it is counted in: "two weeks ago" is the week around it
        n, unit = _count(groups), groups["unit"]
        day = _back(ref, n, unit)
        approx = "around " if groups["n"] in {"a few", "few", "several", "a couple", "a couple of"} else ""
        labels = {"day": _fmt(day), "week": f"the week of {_fmt(day - timedelta(days=day.weekday()))}",
                  "month": f"{calendar.month_name[day.month]} {day.year}", "year": str(day.year)}  # fmt: skip
        half = _AGO_HALF_WIDTH[unit]
        span = Span(day - timedelta(days=half), day + timedelta(days=half + 1), at=day)
        return ("" if unit == "week" else approx) + labels[unit], span
    if kind == "past":  # "the past two weeks": every day since then, up to the reference day
        return _since(_back(ref, _count(groups), groups["unit"]), ref)
    if kind == "last_night":
        return _fmt(ref - timedelta(days=1)), _day(ref - timedelta(days=1))
    if kind == "yesterday":
        day = ref - timedelta(days=2 if "before" in match.group(0).lower() else 1)
        return _fmt(day), _day(day)
    if kind == "today":
        return _fmt(ref), _day(ref)
    if kind == "tomorrow":
        return _fmt(ref + timedelta(days=1)), _day(ref + timedelta(days=1))
    if kind == "weekday":
        target = _WEEKDAYS[groups["weekday"]]
        if groups["rel"] in {"last", "this past"}:
            day = ref - timedelta(days=(ref.weekday() - target) % 7 or 7)
        else:
            day = ref + timedelta(days=(target - ref.weekday()) % 7 or 7)
        return _fmt(day), _day(day)
    if kind == "weekend":
        saturday = 5
        if groups["rel"] in {"last", "this past"}:
            day = ref - timedelta(days=(ref.weekday() - saturday) % 7 or 7)
        else:
            day = ref + timedelta(days=(saturday - ref.weekday()) % 7)
        return f"the weekend of {_fmt(day)}", Span(day, day + timedelta(days=2))
    unit, rel = groups["unit"], groups["rel"]
    if rel == "past":  # "the past month" runs up to the reference day; "last month" is the calendar month before
        return _since(_back(ref, 1, unit), ref)
    step = {"last": -1, "next": 1, "this": 0}[rel]
    if unit == "week":
        monday = ref - timedelta(days=ref.weekday()) + timedelta(weeks=step)
        return f"the week of {_fmt(monday)}", Span(monday, monday + timedelta(weeks=1))
    if unit == "month":
        day = _shift_months(ref.replace(day=1), step)
        return f"{calendar.month_name[day.month]} {day.year}", _month(day)
    return str(ref.year + step), _year(ref.year + step)


def time_expressions(text: str) -> list[tuple[int, int]]:
    """Where `text` says a relative time ("two weeks ago", "last Saturday", "this morning"): (start, end) offsets,
    whatever the reference date. Such words place a statement in time; they are never part of a concept."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(match.span() for _, pattern in _PATTERNS for match in pattern.finditer(text)):
        if merged and start <= merged[-1][1]:  # overlapping expressions ("last two weeks") are one stretch of text
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def resolve_relative_times(text: str, reference: datetime | date | None) -> Resolution:
    """Annotate every relative time expression in `text` with its absolute date."""
    if reference is None:
        return Resolution(text, [])
    ref = reference.date() if isinstance(reference, datetime) else reference
    found: list[tuple[int, int, str, Span]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end, _, _ in found):
                continue  # an earlier, more specific pattern already covers this text
            resolved = _resolve(kind, match, ref)
            if resolved:
                found.append((match.start(), match.end(), resolved[0], resolved[1]))
    if not found:
        return Resolution(text, [])
    out, last = [], 0
    for _start, end, label, _ in sorted(found):
        out.append(text[last:end])
        out.append(f" ({label})")
        last = end
    out.append(text[last:])
    return Resolution("".join(out), [span.dated for *_, span in found], [span for *_, span in found])


_MONTHS = {name: index for index, name in enumerate(calendar.month_name) if name}
# "in March", "during May 2023", "March 2024": a calendar month named, not a verb ("May I"): after a preposition or
# before a year, capitalised.
_NAMED_MONTH = re.compile(
    r"\b(?:(?:[Ii]n|[Dd]uring|[Tt]hroughout|[Oo]f|[Ee]arly|[Ll]ate|[Mm]id-?)\s+)"
    rf"(?P<month>{'|'.join(_MONTHS)})(?:,?\s+(?P<year>\d{{4}}))?\b"
    rf"|\b(?P<month2>{'|'.join(_MONTHS)}),?\s+(?P<year2>\d{{4}})\b"
)


def named_months(text: str, reference: datetime | date | None) -> list[Span]:
    """The calendar months `text` names ("in March", "March 2024"), as spans of days; a month without its year is the
    latest one begun by the reference day (asked in June, "in March" is this year's, "in August" last year's). Read
    by recall only (graph/recall/steps/when.py): ingestion dates a statement by its relative times."""
    if reference is None:
        return []
    ref = reference.date() if isinstance(reference, datetime) else reference
    spans = []
    for match in _NAMED_MONTH.finditer(text):
        month = _MONTHS[match.group("month") or match.group("month2")]
        year_text = match.group("year") or match.group("year2")
        year = int(year_text) if year_text else (ref.year if month <= ref.month else ref.year - 1)
        spans.append(_month(date(year, month, 1)))
    return spans
