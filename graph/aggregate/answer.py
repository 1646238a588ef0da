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


def difference(events: Sequence[Match], sides: tuple[Sequence[str], Sequence[str]] = ((), ())) -> Figure | None:
    """The difference between two events stating different amounts of one unit (else different times of day, in
    minutes): the figure a comparison of two things asks for. The pair is the one saying most of each side's own words
    ("the taxi ride" / "the train fare"), the closer to the question first among equals; without sides, or where no
    event says a side's words, the two closest."""
    stated: list[tuple[Match, float, str]] = []
    for event in events:
        if event.quantity is not None:
            common = event.quantity.common()
            stated.append((event, common.value, common.unit))
    if len({unit for _, _, unit in stated}) == len(stated) or len(stated) < 2:
        times = [(e, clock_minutes(e.text)) for e in events]
        stated = [(e, float(t), "minute") for e, t in times if t is not None]
    left, right = (stems(side) for side in sides)
    best: tuple[int, int, int, Figure] | None = None
    for i, (a, value_a, unit_a) in enumerate(stated):
        for j, (b, value_b, unit_b) in enumerate(stated):
            if i == j or unit_a != unit_b or value_a == value_b:
                continue
            said = _said(a.text, left) + _said(b.text, right)
            found = Figure(round(abs(value_a - value_b), 6), unit_a, "difference")
            key = (-said, min(i, j), max(i, j))
            if best is None or key < best[:3]:
                best = (*key, found)
    return best[3] if best else None


def _said(text: str, side: Sequence[Sequence[str]]) -> int:
    return sum(says(text, forms) for forms in side)


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
        return difference(events, intent.sides)
    if intent.kind == "sum":
        return Figure(total, unit, "sum") if total is not None else None
    stated = stated_count(rows, intent, to_time)
    if stated is not None:
        return Figure(float(stated), None, "stated")
    return Figure(float(count), None, "events") if count is not None else None
