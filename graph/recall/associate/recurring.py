"""The recurring time an utterance speaks of ("It's Wednesday night again", "Sunday mornings", "tonight") and the
past occasions of it: the same weekday and part of the day, in the weeks before `now`, on the user's clock (the zone
of `now`), so that a habit told on an earlier Wednesday evening is found on this one's."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from graph.recall.hits import TimeWindow

_WEEKDAYS = {name.lower(): index for index, name in enumerate(calendar.day_name)}
# Parts of the day as hours [start, end) on the user's clock; "night" is the evening's late part, up to midnight.
PARTS: dict[str, tuple[int, int]] = {
    "morning": (5, 12),
    "noon": (11, 14),
    "lunchtime": (11, 14),
    "afternoon": (12, 18),
    "evening": (17, 24),
    "night": (19, 24),
}
_WEEKDAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", re.IGNORECASE)
_PART = re.compile(r"\b(morning|noon|lunchtime|afternoon|evening|night)s?\b", re.IGNORECASE)
_WEEKEND = re.compile(r"\bweekends?\b", re.IGNORECASE)
# Today's part of the day, named without a weekday: the weekday is now's ("today" alone names no recurring time).
_TODAY = re.compile(r"\b(tonight|this (?:morning|afternoon|evening))\b", re.IGNORECASE)
_AFTER_WORK = re.compile(r"\bafter work\b", re.IGNORECASE)


@dataclass(frozen=True)
class Recurrence:
    weekdays: frozenset[int]  # Monday 0; empty: any day
    hours: tuple[int, int] | None  # [start, end) on the user's clock; None: the whole day
    label: str  # "Wednesday evening", for the trace and the why

    def windows(self, now: datetime, weeks: int) -> list[TimeWindow]:
        """The occasions before `now` in the last `weeks` weeks, each a window on now's clock (its zone)."""
        start_hour, end_hour = self.hours or (0, 24)
        days = [now.date() - timedelta(days=back) for back in range(weeks * 7 + 1)]
        windows = []
        for day in days:
            if self.weekdays and day.weekday() not in self.weekdays:
                continue
            start = datetime.combine(day, time(start_hour), now.tzinfo)
            end = datetime.combine(day, time(0), now.tzinfo) + timedelta(hours=end_hour)
            if start < now:
                windows.append(TimeWindow(start, end, start, end))
        return windows


def recurrence(utterance: str, now: datetime | None) -> Recurrence | None:
    """The weekday(s) and part of the day the utterance names; None when it names neither. "tonight" and "this
    morning" name now's weekday (and need `now`)."""
    weekdays = {_WEEKDAYS[m.group(1).lower()] for m in _WEEKDAY.finditer(utterance)}
    if _WEEKEND.search(utterance):
        weekdays |= {5, 6}
    parts = [m.group(1).lower() for m in _PART.finditer(utterance)]
    today = _TODAY.search(utterance)
    if today and now is not None:
        word = today.group(1).lower()
        weekdays.add(now.weekday())
        if word == "tonight":
            parts.append("night")
        elif word.startswith("this "):
            parts.append(word.split()[1])
    if _AFTER_WORK.search(utterance):
        parts.append("evening")
    if not weekdays and not parts:
        return None
    hours = None
    if parts:
        spans = [PARTS[part] for part in parts]
        hours = (min(s for s, _ in spans), max(e for _, e in spans))
    names = [calendar.day_name[d] for d in sorted(weekdays)]
    label = " ".join([" or ".join(names) if names else "any day", " or ".join(dict.fromkeys(parts)) or ""]).strip()
    return Recurrence(frozenset(weekdays), hours, label)
