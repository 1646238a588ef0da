"""Resolve relative time expressions ("yesterday", "last Saturday", "next month") against a reference date.

The absolute date is written into the text right after the expression, e.g.
"went to a support group yesterday (7 May 2023)", and the earliest resolved date is returned so the
proposition can carry it as `valid_from`.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
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
class Resolution:
    text: str
    dates: list[date]

    @property
    def earliest(self) -> date | None:
        return min(self.dates) if self.dates else None


def _fmt(day: date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def _shift_months(day: date, months: int) -> date:
    month_index = day.year * 12 + day.month - 1 + months
    year, month = divmod(month_index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _resolve(kind: str, match: re.Match[str], ref: date) -> tuple[str, date] | None:
    groups = {k: (v.lower() if v else v) for k, v in match.groupdict().items()}
    if kind == "ago":
        n = int(groups["n"]) if groups["n"].isdigit() else _NUMBERS[groups["n"]]
        unit = groups["unit"]
        approx = "around " if groups["n"] in {"a few", "few", "several", "a couple", "a couple of"} else ""
        if unit == "day":
            day = ref - timedelta(days=n)
            return f"{approx}{_fmt(day)}", day
        if unit == "week":
            day = ref - timedelta(weeks=n)
            return f"the week of {_fmt(day - timedelta(days=day.weekday()))}", day
        if unit == "month":
            day = _shift_months(ref, -n)
            return f"{approx}{calendar.month_name[day.month]} {day.year}", day
        day = date(ref.year - n, ref.month, min(ref.day, 28))
        return f"{approx}{day.year}", day
    if kind == "last_night":
        day = ref - timedelta(days=1)
        return _fmt(day), day
    if kind == "yesterday":
        day = ref - timedelta(days=2 if "before" in match.group(0).lower() else 1)
        return _fmt(day), day
    if kind == "today":
        return _fmt(ref), ref
    if kind == "tomorrow":
        day = ref + timedelta(days=1)
        return _fmt(day), day
    if kind == "weekday":
        target = _WEEKDAYS[groups["weekday"]]
        if groups["rel"] in {"last", "this past"}:
            back = (ref.weekday() - target) % 7 or 7
            day = ref - timedelta(days=back)
        else:
            ahead = (target - ref.weekday()) % 7 or 7
            day = ref + timedelta(days=ahead)
        return _fmt(day), day
    if kind == "weekend":
        saturday = 5
        if groups["rel"] in {"last", "this past"}:
            day = ref - timedelta(days=(ref.weekday() - saturday) % 7 or 7)
        else:
            day = ref + timedelta(days=(saturday - ref.weekday()) % 7)
        return f"the weekend of {_fmt(day)}", day
    unit, rel = groups["unit"], groups["rel"]
    step = {"last": -1, "past": -1, "next": 1, "this": 0}[rel]
    if unit == "week":
        monday = ref - timedelta(days=ref.weekday()) + timedelta(weeks=step)
        return f"the week of {_fmt(monday)}", monday
    if unit == "month":
        day = _shift_months(ref.replace(day=1), step)
        return f"{calendar.month_name[day.month]} {day.year}", day
    day = date(ref.year + step, 1, 1)
    return str(day.year), day


def resolve_relative_times(text: str, reference: datetime | date | None) -> Resolution:
    """Annotate every relative time expression in `text` with its absolute date."""
    if reference is None:
        return Resolution(text, [])
    ref = reference.date() if isinstance(reference, datetime) else reference
    spans: list[tuple[int, int, str, date]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end, _, _ in spans):
                continue  # an earlier, more specific pattern already covers this text
            resolved = _resolve(kind, match, ref)
            if resolved:
                spans.append((match.start(), match.end(), resolved[0], resolved[1]))
    if not spans:
        return Resolution(text, [])
    out, last = [], 0
    for _start, end, label, _ in sorted(spans):
        out.append(text[last:end])
        out.append(f" ({label})")
        last = end
    out.append(text[last:])
    return Resolution("".join(out), [day for *_, day in spans])
