"""Temporal ordering of the final ranking: what someone says later updates what they said before.

Both reorderings work on a ranking's `Placement`s (graph/recall/logic/mmr.py): each item's closest cosine to an
item above it and that item.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np
from numpy.typing import NDArray

from graph.recall.logic.mmr import Placement


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
