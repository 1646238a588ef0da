"""The time windows a question names, read against the moment it is asked: "Which concert did I go to three weeks
ago?" asked on Wednesday 16 October 2024 names the week of 23-29 September.

Duckling (`pyduckling-native-phihos`) finds the times and resolves them; a thin wrapper turns each into whole days
(`Span`, [first, end), with `at` where it dates a single day) and mends where Duckling is wrong or unsuited to a
question put to a memory, which speaks of the past (docs/time_windows.md):
- a time that recurs (a month, a season, a holiday, a weekday, "on the weekend", "early July") is its latest
  occurrence begun by `now`, where Duckling gives the next one; so is "this summer" asked in October;
- "N weeks ago" is the week (Monday to Sunday) of that day, "N months ago" the month around it, "N years ago" the
  year around it (Duckling: a day, or the first of a month);
- "the past two weeks" is the days up to today (Duckling: the two calendar weeks before this one);
- start / early / mid / late / end of a month or year where Duckling drops the word ("the end of last month");
- "the week / weekend / month / year / summer before last" (Duckling: this week, a weekend or summer to come), "two
  weekends ago" (Duckling: the next weekend) and "the other day" (Duckling: nothing);
- "over Christmas" is the holiday's day and the day either side;
- "now", a time of day ("in the morning"), a habit ("on Mondays", "every weekend"), an ordinal ("the first
  concert") and a one-word time not after a preposition of time ("Who is April?", "the march for climate") name no
  window.
Nothing is read without Duckling; a text it cannot read gives no window.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any

from engram.extraction.temporal import Span

_ZONEINFO = "/usr/share/zoneinfo"
_DAY = timedelta(days=1)
_WEEK = timedelta(weeks=1)

Entity = dict[str, Any]  # one of Duckling's answers: body, start, end, value


@dataclass(frozen=True)
class _Duckling:
    """Duckling's module and what every parse needs, loaded once."""

    module: Any
    zones: Any
    locale: Any
    time: Any  # the dimensions asked for: times
    duration: Any  # and durations ("three weeks" of "three weeks ago")

    def parse(self, text: str, now: datetime, dims: Any) -> list[Entity]:
        """Duckling's reading of `text` at `now`'s wall clock (read as UTC: every day below is a day of that clock)."""
        stamp = int(now.replace(tzinfo=UTC).timestamp())
        context = self.module.Context(self.module.parse_ref_time(self.zones, "UTC", stamp), self.locale)
        return list(self.module.parse(text, context, dims, False))


@lru_cache(maxsize=1)
def _duckling() -> _Duckling | None:
    try:
        import duckling  # starts the Haskell runtime once
    except ImportError:
        return None
    locale = duckling.default_locale_lang(duckling.parse_lang("EN"))
    zones = duckling.load_time_zones(_ZONEINFO)
    return _Duckling(
        duckling, zones, locale, duckling.parse_dimensions(["time"]), duckling.parse_dimensions(["duration"])
    )


def question_spans(text: str, now: datetime) -> list[Span]:
    """The days each time `text` names covers, read against `now`, in the order named; [] when it names none or
    cannot be read (never raises)."""
    duck = _duckling()
    if duck is None or not text.strip():
        return []
    try:
        return _spans(duck, text, now)
    except Exception:  # a question Duckling cannot read names no time
        return []


def _spans(duck: _Duckling, text: str, now: datetime) -> list[Span]:
    found: list[tuple[int, Span]] = []
    taken: list[tuple[int, int]] = []
    for pattern, read in _OWN:
        for match in pattern.finditer(text):
            read_here = read(duck, now, match)
            if read_here is not None:
                found.append(read_here)
                taken.append((read_here[0], match.end()))
    for entity in duck.parse(text, now, duck.time):
        start, end = entity["start"], entity["end"]
        if entity.get("dim") != "time" or any(start < e and s < end for s, e in taken):
            continue
        span = _entity_span(duck, text, entity, now)
        if span is not None:
            found.append((start, span))
    spans: list[Span] = []
    for _, span in sorted(found, key=lambda f: f[0]):
        if span not in spans:
            spans.append(span)
    return spans


# -- Duckling's answers, as days ---------------------------------------------------------------------------------------

_AGO = re.compile(r"\bago$", re.IGNORECASE)
_ROLLING = re.compile(r"^(?:the\s+)?(?:past|last)\s+(?P<rest>.+)$", re.IGNORECASE)
_PAST_UNIT = re.compile(r"^(?:the\s+)?past\s+(?P<unit>day|week|month|year)$", re.IGNORECASE)
# A habit: "on Mondays", "every weekend", "each Friday".
_HABIT = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\b(?:every|each)\s+$", re.IGNORECASE)
_MONTHLY = (timedelta(days=28), timedelta(days=31))
_THIS_SEASON = re.compile(r"^this\s+(?:spring|summer|autumn|fall|winter)$", re.IGNORECASE)
_OVER = re.compile(r"\bover\s+$", re.IGNORECASE)
# The word before a time Duckling read from one word alone ("April", "Sunday", "summer", "Easter"): a time only after
# a preposition of time ("in April", "on the weekend", "for Easter"), not "Who is April?" or "the march for climate".
_WORD_BEFORE = re.compile(r"(?:^|\b(?P<word>\w+))\s*(?:\bthe\s+)?$", re.IGNORECASE)
_TIME_PREPOSITIONS = frozenset({
    "in", "on", "at", "over", "during", "for", "since", "until", "till", "before", "after", "around", "by", "through",
    "throughout", "from", "to", "of",
})  # fmt: skip
_THE_DAY = re.compile(r"^the\s+day$", re.IGNORECASE)  # "my plan for the day"
# A part of a month or year written before what Duckling read ("the end of" + "last month", "late" + "last year").
_PART = re.compile(
    r"(?:\b(?P<word>early|late|mid)-?|\b(?P<of>start|beginning|middle|end)\s+of(?:\s+the)?)\s*$", re.IGNORECASE
)
_PART_OF = {"early": 0, "start": 0, "beginning": 0, "mid": 1, "middle": 1, "late": 2, "end": 2}


def _entity_span(duck: _Duckling, text: str, entity: Entity, now: datetime) -> Span | None:
    body: str = entity["body"].strip()
    value: dict[str, Any] = entity["value"]
    today = now.date()
    if value.get("type") == "value" and value.get("grain") == "second":
        return None  # "now", "right now", "at the moment": the present, not a window
    if _AGO.search(body):
        return _ago(duck, body, now)
    rolling = _rolling(duck, body, now)
    if rolling is not None:
        return rolling
    before = text[: entity["start"]]
    if _THE_DAY.match(body):
        return None
    holiday = "holidayBeta" in value and _OVER.search(before) is not None
    part = _PART.search(before)
    third = _PART_OF[(part.group("word") or part.group("of")).lower()] if part else None

    def days(occurrence: dict[str, Any]) -> Span | None:
        span = _days(occurrence, today)
        if span is not None and holiday and span.end - span.first == _DAY:
            span = Span(span.first - _DAY, span.end + _DAY, at=span.first)  # "over Christmas": 24-26 December
        return _part(span, third) if span is not None and third is not None else span

    occurrences = [s for s in map(days, value.get("values") or [value]) if s is not None]
    if not occurrences:
        return None
    if len(occurrences) > 1:  # it recurs: a month, a holiday, a weekday, the weekend
        period = occurrences[1].first - occurrences[0].first
        if period <= _DAY or _HABIT.search(body) or _HABIT.search(before):
            return None  # a time of day ("in the morning", "at 5pm") or a habit ("on Mondays", "every weekend")
        if _MONTHLY[0] <= period <= _MONTHLY[1] and not body.lower().startswith("on "):
            return None  # "the first concert": an ordinal, not the first of the month ("on the first" is)
        if " " not in body and not _after_preposition(before):
            return None  # "Who is April?", "the march for climate"
        earlier = _same_entity(duck, text, entity, now - 2 * period)
        occurrences += [s for s in map(days, earlier.get("values") or [earlier]) if s is not None] if earlier else []
        if period == _WEEK and occurrences[0].end - occurrences[0].first == _DAY:
            today -= _DAY  # "on Monday", asked on a Monday: the Monday before
        return _latest(occurrences, today)
    span = occurrences[0]
    if span.first > today and _THIS_SEASON.match(body):  # "this summer", asked in October: the summer just gone
        earlier = _same_entity(duck, text, entity, now - timedelta(days=365))
        return _latest([s for s in map(days, [earlier] if earlier else []) if s is not None], today)
    return span


def _after_preposition(before: str) -> bool:
    """Whether the text before a one-word time ends with a preposition of time ("in", "on the", "for")."""
    word = _WORD_BEFORE.search(before)
    return word is not None and (word.group("word") or "").lower() in _TIME_PREPOSITIONS


def _latest(spans: list[Span], today: date) -> Span | None:
    """The latest occurrence begun by today: memory speaks of the past."""
    past = [s for s in spans if s.first <= today]
    return max(past, key=lambda s: s.first) if past else None


def _same_entity(duck: _Duckling, text: str, entity: Entity, ref: datetime) -> dict[str, Any] | None:
    """The value Duckling gives the same words read at an earlier moment."""
    for other in duck.parse(text, ref, duck.time):
        if (other["start"], other["end"]) == (entity["start"], entity["end"]):
            found: dict[str, Any] = other["value"]
            return found
    return None


def _instant(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _days(value: dict[str, Any], today: date) -> Span | None:
    """The whole days of one of Duckling's values: a day ("yesterday"), a grain's days ("last week": Monday to
    Sunday; "in 2022": the year) or an interval's ("last weekend", Friday 18:00 to Monday: Saturday and Sunday)."""
    if value.get("type") == "interval":
        start, stop = value.get("from"), value.get("to")
        if start is None:
            return None  # "until May": no beginning
        first_at = _instant(start["value"])
        first = first_at.date()
        if stop is None:  # "since March": up to today
            return Span(first, max(today + _DAY, first + _DAY))
        stop_at = _instant(stop["value"])
        end = stop_at.date() if stop_at.time() == time(0) else stop_at.date() + _DAY
        if first_at.time() > time(12) and stop_at - first_at >= _DAY:
            first += _DAY  # a weekend from Friday evening is Saturday and Sunday
        return _one_day(Span(first, max(end, first + _DAY)))
    if "value" not in value:
        return None
    first = _instant(value["value"]).date()
    grain = value.get("grain", "day")
    if grain == "week":
        return Span(first, first + _WEEK)
    if grain in ("month", "quarter", "year"):
        months = {"month": 1, "quarter": 3, "year": 12}[grain]
        return Span(first, _shift_months(first, months))
    return Span(first, first + _DAY, at=first)


def _one_day(span: Span) -> Span:
    """A span of one day dates it."""
    return Span(span.first, span.end, at=span.first) if span.end - span.first == _DAY else span


def _part(span: Span, third: int) -> Span:
    """Early (days 1-10), mid (11-20) or late (21 to the end) in a whole month; early (January-April), mid
    (May-August) or late (September-December) in a whole year; any other span as it is."""
    first = span.first
    if first.day == 1 and span.end == _shift_months(first, 1):
        starts = [first, first.replace(day=11), first.replace(day=21), span.end]
    elif (first.month, first.day) == (1, 1) and span.end == _shift_months(first, 12):
        starts = [first, first.replace(month=5), first.replace(month=9), span.end]
    else:
        return span
    return Span(starts[third], starts[third + 1])


# -- "N weeks ago", "the past two weeks" -------------------------------------------------------------------------------


def _duration(duck: _Duckling, body: str, now: datetime) -> tuple[int, str] | None:
    """How long `body` says, as a count of a unit ("three weeks": 3 week; "a fortnight": 2 week)."""
    for entity in duck.parse(body, now, duck.duration):
        value = entity["value"]
        count, unit = value.get("value"), value.get("unit")
        if unit in ("second", "minute", "hour"):
            return 0, "day"
        if not isinstance(count, int) or unit not in ("day", "week", "month", "quarter", "year"):
            seconds = value.get("normalized", {}).get("value")
            return (int(seconds // 86400), "day") if isinstance(seconds, int | float) else None
        if unit == "quarter":
            return 3 * count, "month"
        if unit == "day" and count and count % 7 == 0:
            return count // 7, "week"
        return count, unit
    return None


def _ago(duck: _Duckling, body: str, now: datetime) -> Span | None:
    """A time ago, as wide as the unit it is counted in: the day; three days either side of it (a week around it, as
    ingestion dates "two weeks ago" said in a turn: engram/extraction/temporal.py, so a question and a memory agree);
    half a month either side of it; half a year either side of it. It dates that day."""
    length = _duration(duck, body, now)
    if length is None:
        return None
    count, unit = length
    day = _back(now.date(), count, unit)
    half = {"week": 3, "month": 15, "year": 182}.get(unit, 0)
    return Span(day - timedelta(days=half), day + timedelta(days=half + 1), at=day)


def _rolling(duck: _Duckling, body: str, now: datetime) -> Span | None:
    """Every day since then, up to today: "the past two weeks", "the last few days", "the past month" ("last week"
    and "last month" stay the calendar's)."""
    today = now.date()
    past = _PAST_UNIT.match(body)
    if past:
        return Span(_back(today, 1, past.group("unit").lower()), today + _DAY)
    rolling = _ROLLING.match(body)
    length = _duration(duck, rolling.group("rest"), now) if rolling else None
    if length is None:
        return None
    return Span(_back(today, *length), today + _DAY)


def _back(day: date, count: int, unit: str) -> date:
    if unit == "week":
        return day - timedelta(weeks=count)
    if unit == "month":
        return _shift_months(day, -count)
    if unit == "year":
        return _shift_months(day, -12 * count)
    return day - timedelta(days=count)


def _shift_months(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


# -- what Duckling misreads or does not read ---------------------------------------------------------------------------


Reader = Callable[[_Duckling, datetime, re.Match[str]], tuple[int, Span] | None]  # where a phrase begins, its days


def _earlier(span: Span, unit: str, count: int = 1) -> Span:
    """`span`, `count` of its units earlier: a week for a week or weekend, a month, else a year (a season)."""
    if unit in ("week", "weekend"):
        return Span(span.first - count * _WEEK, span.end - count * _WEEK)
    months = count * (1 if unit == "month" else 12)
    return Span(_shift_months(span.first, -months), _shift_months(span.end, -months))


def _last(duck: _Duckling, now: datetime, unit: str) -> Span | None:
    """Duckling's "last <unit>" ("last weekend": Saturday and Sunday before now)."""
    spans = [_days(entity["value"], now.date()) for entity in duck.parse(f"last {unit}", now, duck.time)]
    return spans[0] if spans else None


def _before_last(duck: _Duckling, now: datetime, match: re.Match[str]) -> tuple[int, Span] | None:
    """The week, weekend, month, year or season before last: Duckling's "last <unit>", one earlier (Duckling reads
    "the week" alone, and "the weekend before last" and "the summer before last" as ones to come)."""
    unit = match.group("unit").lower()
    span = _last(duck, now, unit)
    return (match.start(), _earlier(span, unit)) if span is not None else None


def _weekends_ago(duck: _Duckling, now: datetime, match: re.Match[str]) -> tuple[int, Span] | None:
    """N weekends ago ("two weekends ago": the weekend before last; Duckling: the next weekend). The count is
    Duckling's, of the words before ("two weekends" read as "two weeks")."""
    words = match.group("count")
    counts = [e for e in duck.parse(f"{words} weeks", now, duck.duration) if e["end"] == len(words) + len(" weeks")]
    count = counts[-1]["value"].get("value") if counts else None
    span = _last(duck, now, "weekend")
    if not isinstance(count, int) or count < 1 or span is None:
        return None
    return match.start("count") + counts[-1]["start"], _earlier(span, "weekend", count - 1)


def _other_day(duck: _Duckling, now: datetime, match: re.Match[str]) -> tuple[int, Span]:
    """A few days ago ("the other day"): the week before today."""
    return match.start(), Span(now.date() - _WEEK, now.date())


_OWN: list[tuple[re.Pattern[str], Reader]] = [
    (re.compile(r"\bthe\s+other\s+day\b", re.IGNORECASE), _other_day),
    (
        re.compile(
            r"\b(?:the\s+)?(?P<unit>week|weekend|month|year|spring|summer|autumn|fall|winter)\s+before\s+last\b",
            re.IGNORECASE,
        ),
        _before_last,
    ),
    (re.compile(r"(?P<count>(?:\S+\s+){0,2}\S+)\s+weekends?\s+ago\b", re.IGNORECASE), _weekends_ago),
]
