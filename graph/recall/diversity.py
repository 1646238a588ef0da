"""Diversification of the ranked head by maximal marginal relevance (Carbonell & Goldstein, 1998).

A conversation repeats itself: the ten items closest to a question are often one topic said five ways, while a
question that gathers several things ("what activities does Melanie do?") needs one item on each. Each next item
is the one with the greatest (1 - trade_off) x score / top score - trade_off x (its closest cosine to an item already
placed), so a near-duplicate of what is already returned gives way to the next distinct memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Placement:
    """Where an item of the head went: `index` into the input, its redundancy (closest cosine to an item placed
    before it) and that item's index (None for the first)."""

    index: int
    redundancy: float
    closest: int | None


def mmr_order(scores: NDArray[np.float64], vectors: NDArray[np.float32], trade_off: float) -> list[Placement]:
    """The greedy MMR order of items with `scores` (best first as given; ties keep that order) and embedding
    `vectors` (one row each; a zero row is redundant with nothing). `trade_off` in [0, 1): 0 keeps the order."""
    if not 0.0 <= trade_off < 1.0:
        raise ValueError(f"trade_off must be in [0, 1), got {trade_off}")
    count = len(scores)
    if count == 0:
        return []
    top = float(np.max(scores))
    value = (1.0 - trade_off) * (scores / top if top > 0 else np.zeros(count))
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    cosines = unit @ unit.T
    redundancy = np.zeros(count)
    closest = np.full(count, -1)
    placed = np.zeros(count, dtype=bool)
    order: list[Placement] = []
    for _ in range(count):
        gain = np.where(placed, -np.inf, value - trade_off * redundancy)
        best = int(np.argmax(gain))  # the first of equals: ties keep the input order
        order.append(Placement(best, float(redundancy[best]), int(closest[best]) if closest[best] >= 0 else None))
        placed[best] = True
        closer = cosines[best] > redundancy
        redundancy = np.where(closer, cosines[best], redundancy)
        closest = np.where(closer, best, closest)
    return order


def newer_restatements_first(
    placements: list[Placement],
    scores: NDArray[np.float64],
    times: list[datetime | None],
    speakers: list[frozenset[str]],
    threshold: float,
    closeness: float,
) -> list[Placement]:
    """Moves each restatement (cosine to the item it repeats of at least `threshold`, said by one of the same
    speakers) that was said later than that item to just above it: "I've finished my 5th project" after "I've
    completed 4 projects" is what the person says now, and the earlier statement is what it updates. Only one scored
    at least `closeness` x that item's score moves: a far weaker restatement moved up would push every item between
    down. Items without a time or a speaker (a document's passages) stay where they are."""
    order = list(placements)
    for placement in placements:
        repeated = placement.closest
        if repeated is None or placement.redundancy < threshold:
            continue
        said, earlier = times[placement.index], times[repeated]
        if said is None or earlier is None or said <= earlier:
            continue
        if not speakers[placement.index] & speakers[repeated]:
            continue
        if scores[placement.index] < closeness * scores[repeated]:
            continue
        order.remove(placement)
        above = next(i for i, p in enumerate(order) if p.index == repeated)
        order.insert(above, placement)
    return order


# A question about what holds now or held before it changed ("What lens did I buy most recently?", "my current
# status", "my previous tutor"); "our previous conversation" names a talk, not a state.
_ASKS_FOR_STATE = re.compile(
    r"\b(?:currently|current|now|most recent(?:ly)?|latest|anymore|these days|at the moment"
    r"|previous(?:ly)?(?! (?:conversation|chat|discussion|talk)s?\b))\b",
    re.IGNORECASE,
)


def asks_for_state(query: str) -> bool:
    """Whether the query asks what holds now, or what held before it changed."""
    return _ASKS_FOR_STATE.search(query) is not None


def latest_version_first(
    placements: list[Placement],
    scores: NDArray[np.float64],
    vectors: NDArray[np.float32],
    times: list[datetime | None],
    speakers: list[frozenset[str]],
    threshold: float,
    closeness: float,
) -> list[Placement]:
    """Puts first the latest item about what the first item is about (cosine at least `threshold` to it, said by
    one of its speakers, scored at least `closeness` x it), for a question about a state: "I've been getting great
    shots with my new 70-200mm lens" said in August answers "What lens did I buy most recently?" though "I recently
    got a new 50mm lens" said in March matches its words better; and what the state was before is only known
    against what it is now. Unchanged where the first item has no time or nothing later is about it."""
    if len(placements) < 2:
        return placements
    first = placements[0].index
    newest = times[first]
    if newest is None:
        return placements
    norms = np.maximum(np.linalg.norm(vectors, axis=1), 1e-12)
    latest: Placement | None = None
    for placement in placements[1:]:
        i = placement.index
        said = times[i]
        if said is None or said <= newest:
            continue
        if scores[i] < closeness * scores[first] or not speakers[i] & speakers[first]:
            continue
        if float(vectors[i] @ vectors[first]) / (norms[i] * norms[first]) >= threshold:
            latest, newest = placement, said
    if latest is None:
        return placements
    return [latest, *(p for p in placements if p is not latest)]
