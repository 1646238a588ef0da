"""The one figure that answers the question, and which memories may count towards it.

- What is counted must be what the question names: "how many Italian restaurants" counts no memory that does not say
  "Italian" (`restricted`), however like the question it reads; a memory saying the head noun's kind ("the antique
  tea set" for "antique items") counts.
- A count the memory itself states of the counted thing ("I've completed 4 projects", later "my 5th project") is the
  answer, as of its latest statement (`stated_count`): the memory tells a running total, not each project.
- A comparison ("how much more ... than", "how much earlier ... than") is the difference between the two closest
  matches stating amounts of one unit (or times of day), not their sum (`difference`).
- A count of times the memory states ("I've tried making it 10 times now") is likewise its latest statement.
- A count of things of any kind ("how many rare items") the memory states per kind ("12 rare figurines", "57 rare
  records") is the sum of each kind's latest count (`kinds_count`).
- A sum or count of two things joined by "and" ("the handbag and the skincare products") adds one figure per thing:
  the amount (or stated count) of the match saying most of that thing's words (`parts_sum`, `stated_count`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from graph.aggregate.compute import TimeFn, stems
from graph.aggregate.dedup import Match
from graph.aggregate.intent import AggregateIntent
from graph.aggregate.models import Figure
from graph.aggregate.quantity import clock_minutes, counted_kinds, stated_counts

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


# Nouns naming things of any kind: "how many rare items" counts figurines, records and coins alike.
GENERIC_HEADS = frozenset(["items", "things", "objects", "belongings", "possessions"])


def worded(rows: Sequence[dict[str, Any]], intent: AggregateIntent, min_share: float) -> bool:
    """Whether a match says `min_share` of the question's words, or of one of the things it joins by "and" (a
    statement tells of the handbag or of the skincare, not of both)."""
    if any(row["term_share"] >= min_share for row in rows):
        return True
    parts = [stems(part) for part in intent.parts]
    return any(_said(row["text"], forms) >= min_share * len(forms) for row in rows for forms in parts if forms)


def stated_count(rows: Sequence[dict[str, Any]], intent: AggregateIntent, to_time: TimeFn) -> int | None:
    """The count of the counted noun (or of times) as the latest matching statement stating one gives it; of two
    things joined by "and", the sum of each one's (None: not every one is stated)."""
    if intent.kind != "count":
        return None
    stem = "time" if intent.times else intent.head
    (forms,) = stems([stem]) if stem else [[]]
    if not forms:
        return None
    parts = [stems(part) for part in intent.parts] or [[]]
    total = 0
    for part in parts:
        saying = [row for row in rows if not part or _said(row["text"], part)]
        latest = _latest(saying, lambda text: stated_counts(text, forms[0], not intent.times), to_time)
        if latest is None:
            return None
        total += latest
    return total


def _latest(rows: Sequence[dict[str, Any]], counts_in: Callable[[str], list[int]], to_time: TimeFn) -> int | None:
    """The count stated by the latest row stating exactly one (the larger on the same moment)."""
    latest: tuple[datetime, int] | None = None
    for row in rows:
        counts = counts_in(row["text"])
        at = to_time(row.get("at"))
        if len(set(counts)) != 1 or at is None:
            continue
        if latest is None or (at, counts[0]) > latest:
            latest = (at, counts[0])
    return latest[1] if latest else None


def kinds_count(rows: Sequence[dict[str, Any]], intent: AggregateIntent, to_time: TimeFn) -> int | None:
    """A count of things of any kind narrowed by the question's words ("how many rare items"): each kind's count as
    its latest statement gives it ("12 rare figurines", "57 rare records"), added up (None: none stated)."""
    if intent.kind != "count" or intent.head not in GENERIC_HEADS or not intent.restrictors:
        return None
    narrowing = [form for forms in stems(intent.restrictors) for form in forms]
    kinds: dict[str, tuple[datetime, int]] = {}
    for row in rows:
        at = to_time(row.get("at"))
        stated: dict[str, set[int]] = {}
        for kind, value in counted_kinds(row["text"], narrowing):
            stated.setdefault(stems([kind])[0][0], set()).add(value)
        for kind, values in stated.items():
            if at is None or len(values) != 1:
                continue
            found = (at, values.pop())
            if kind not in kinds or found > kinds[kind]:
                kinds[kind] = found
    return sum(value for _, value in kinds.values()) if kinds else None


def parts_sum(events: Sequence[Match], intent: AggregateIntent) -> Figure | None:
    """A sum of two things joined by "and": for each, the amount of the event stating one that says most of its
    words (the closer to the question among equals), added up; None unless each has its own event, all in one
    unit."""
    if len(intent.parts) < 2:
        return None
    picked: list[Match] = []
    for part in intent.parts:
        forms = stems(part)
        best: tuple[int, Match] | None = None
        for event in events:
            said = _said(event.text, forms) if event.quantity is not None else 0
            if said and (best is None or said > best[0]):
                best = (said, event)
        if best is None:
            return None
        picked.append(best[1])
    amounts = [event.quantity.common() for event in picked if event.quantity is not None]
    if len({event.id for event in picked}) < len(picked) or len({q.unit for q in amounts}) != 1:
        return None
    return Figure(round(sum(q.value for q in amounts), 6), amounts[0].unit, "sum")


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
    to_time: TimeFn,
) -> Figure | None:
    """The figure answering the question: a comparison's difference, a sum's total, a count as stated, else the events
    counted."""
    if intent.kind == "compare":
        return difference(events, intent.sides)
    if intent.kind == "sum":
        named = parts_sum(events, intent)
        if named is not None:
            return named
        return Figure(total, unit, "sum") if total is not None else None
    stated = stated_count(rows, intent, to_time)
    if stated is None:
        stated = kinds_count(rows, intent, to_time)
    if stated is not None:
        return Figure(float(stated), None, "stated")
    return Figure(float(count), None, "events") if count is not None else None
