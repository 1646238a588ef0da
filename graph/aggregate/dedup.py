"""The same event told twice counts once: matches of one day (or undated) that state no different quantity and either
say the same thing in nearly the same words, or were told in one conversation (`same_source`: a conversation tells of
the party it is about in many statements), fold into the first (closest to the question) of them. The same words on
different days are different events ("I ran 5 km this morning", told on three mornings), unless one of them, told in
the same conversation and naming the same people, has no date of its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np

from graph.aggregate.quantity import Quantity


@dataclass
class Match:
    id: str
    text: str
    day: date | None
    vector: Sequence[float]
    quantity: Quantity | None
    source: str | None = None  # the conversation or document it was told in (its first proof)
    dated: bool = True  # dated by its own words ("yesterday"), not only by when it was told
    names: frozenset[str] = frozenset()  # the names it mentions (not its speakers'): "Rachel" of "Rachel's graduation"
    duplicates: list[str] = field(default_factory=list)  # ids folded into it


def same_event(a: Match, b: Match, cosine: float, threshold: float, same_source: bool = False) -> bool:
    if cosine < threshold and not (same_source and a.source is not None and a.source == b.source):
        return False
    if a.day is not None and b.day is not None and a.day != b.day and not retold(a, b, same_source):
        return False
    if a.quantity is not None and b.quantity is not None:
        return (a.quantity.value, a.quantity.unit) == (b.quantity.value, b.quantity.unit)
    return True


def retold(a: Match, b: Match, same_source: bool) -> bool:
    """A conversation coming back to an event it dated before, without dating it again and naming the same people
    ("Rachel's graduation reminded me", after "I attended Rachel's graduation two weeks ago"): its day is only the day
    it was told."""
    one_source = same_source and a.source is not None and a.source == b.source
    return one_source and not (a.dated and b.dated) and bool(a.names & b.names)


def fold_duplicates(matches: Sequence[Match], threshold: float, same_source: bool = False) -> list[Match]:
    """The distinct events, in the order given: each match folds into the first earlier event it tells again (and
    lends it its quantity where the event states none)."""
    if not matches:
        return []
    matrix = np.asarray([m.vector for m in matches], dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix = matrix / np.where(norms == 0, 1, norms)
    cosines = matrix @ matrix.T
    events: list[int] = []
    kept: list[Match] = []
    for index, match in enumerate(matches):
        for position, head in enumerate(events):
            if same_event(kept[position], match, float(cosines[head, index]), threshold, same_source):
                event = kept[position]
                event.duplicates.append(match.id)
                if event.quantity is None and match.quantity is not None:
                    event.quantity = match.quantity
                break
        else:
            events.append(index)
            kept.append(
                Match(
                    match.id, match.text, match.day, match.vector, match.quantity, match.source, match.dated,
                    match.names,
                )
            )  # fmt: skip
    return kept
