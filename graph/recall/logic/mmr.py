"""Diversification of the ranked head by maximal marginal relevance (Carbonell & Goldstein, 1998).

A conversation repeats itself: the ten items closest to a question are often one topic said five ways, while a
question that gathers several things ("what activities does Melanie do?") needs one item on each. Each next item
is the one with the greatest (1 - trade_off) x score / top score - trade_off x (its closest cosine to an item already
placed), so a near-duplicate of what is already returned gives way to the next distinct memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from graph.recall.candidates import Ranked


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


def closest_above(vectors: NDArray[np.float32]) -> list[Placement]:
    """For items in their ranked order (one embedding row each), each one's closest cosine to an item above it and
    that item: the redundancy `mmr_order` records, for a ranking already in its final order."""
    count = len(vectors)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    cosines = unit @ unit.T
    placements = []
    for index in range(count):
        if index == 0:
            placements.append(Placement(0, 0.0, None))
            continue
        above = cosines[index, :index]
        closest = int(np.argmax(above))  # the first of equals, as `mmr_order` keeps it
        redundancy = max(float(above[closest]), 0.0)
        placements.append(Placement(index, redundancy, closest if above[closest] > 0 else None))
    return placements


def value_scores(ranked: list[Ranked]) -> NDArray[np.float64]:
    """The value function's scores of a ranking (before MMR's redundancy penalty, where it ran)."""
    return np.array([item.components.get("value", item.score) for item in ranked], dtype=np.float64)
