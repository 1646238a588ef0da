"""The one figure that answers the question, and which memories may count towards it.

- What is counted must be what the question names: "how many Italian restaurants" counts no memory that does not say
  "Italian" (`restricted`), however like the question it reads; a memory saying the head noun's kind ("the antique
  tea set" for "antique items") counts.
- A count the memory itself states of the counted thing ("I've completed 4 projects", later "my 5th project") is the
  answer, as of its latest statement (`stated_count`): the memory tells a running total, not each project.
- A comparison ("how much more ... than", "how much earlier ... than") is the difference between the two closest
  matches stating amounts of one unit (or times of day), not their sum (`difference`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from graph.aggregate.compute import stems
from graph.aggregate.dedup import Match
from graph.aggregate.intent import AggregateIntent
from graph.aggregate.models import Figure
from graph.aggregate.quantity import clock_minutes, stated_counts

_PUNCTUATION = re.compile(r"[^\w\s'-]|'s\b")


def words_of(text: str) -> str:
    return " " + _PUNCTUATION.sub(" ", text.lower()).replace("'", " ")


def says(text: str, forms: Sequence[str]) -> bool:
    """Whether a word of `text` starts as one of `forms` does (a stem and its irregular forms)."""
    words = words_of(text)
    return any(" " + form in words for form in forms)


def restricted(rows: Sequence[dict[str, Any]], intent: AggregateIntent, min_alone: float) -> list[dict[str, Any]]:
    """The matches saying every word that narrows the counted noun ("Italian" of "Italian restaurants"), or so close
    to the question (vector score `min_alone`) that they count without its words."""
    needed = stems(intent.restrictors)
    if not needed:
        return list(rows)
    return [
        row
        for row in rows
        if float(row["similarity"]) >= min_alone or all(says(row["text"], forms) for forms in needed)
    ]


def stated_count(
    rows: Sequence[dict[str, Any]], intent: AggregateIntent, to_time: Callable[[Any], datetime | None]
) -> int | None:
    """The count of the counted noun as the latest matching statement stating one gives it (None: none states it)."""
    if intent.kind != "count" or intent.head is None:
        return None
    (forms,) = stems([intent.head]) or [[]]
    if not forms:
        return None
    latest: tuple[datetime, int] | None = None
    for row in rows:
        counts = stated_counts(row["text"], forms[0])
        at = to_time(row.get("at"))
        if len(set(counts)) != 1 or at is None:
            continue
        if latest is None or (at, counts[0]) > latest:
            latest = (at, counts[0])
    return latest[1] if latest else None


def difference(events: Sequence[Match]) -> Figure | None:
    """The difference between the two closest events stating different amounts of one unit (else different times of
    day, in minutes): the figure a comparison of two things asks for."""
    amounts = [(e.quantity.common().value, e.quantity.common().unit) for e in events if e.quantity is not None]
    for index, (value, unit) in enumerate(amounts):
        other = next((v for v, u in amounts[index + 1 :] if u == unit and v != value), None)
        if other is not None:
            return Figure(round(abs(value - other), 6), unit, "difference")
    times = [t for t in (clock_minutes(e.text) for e in events) if t is not None]
    if len(times) >= 2 and times[0] != times[1]:
        return Figure(float(abs(times[0] - times[1])), "minute", "difference")
    return None


def figure(
    intent: AggregateIntent,
    rows: Sequence[dict[str, Any]],
    events: Sequence[Match],
    count: int | None,
    total: float | None,
    unit: str | None,
    to_time: Callable[[Any], datetime | None],
) -> Figure | None:
    """The figure answering the question: a comparison's difference, a sum's total, a count as stated, else the events
    counted."""
    if intent.kind == "compare":
        return difference(events)
    if intent.kind == "sum":
        return Figure(total, unit, "sum") if total is not None else None
    stated = stated_count(rows, intent, to_time)
    if stated is not None:
        return Figure(float(stated), None, "stated")
    return Figure(float(count), None, "events") if count is not None else None
