"""Diversify: reorder the ranking by maximal marginal relevance (graph/recall/diversity.py)."""

from __future__ import annotations

import numpy as np

from graph.recall.candidates import Ranked, kinds
from graph.recall.diversity import mmr_order
from graph.recall.models import TraceStep
from graph.recall.run import RecallRun


def diversify(run: RecallRun, ranked: list[Ranked]) -> list[Ranked]:
    """Each item's score becomes its final one, the value function's score less its redundancy penalty (the MMR
    gain on the value function's scale), so scores fall with the rank; the components keep `value` (the score
    before) and `redundancy` (its closest cosine to an item placed above it). The trace lists the items moved down,
    each with that closest item."""
    if len(ranked) < 2:
        return ranked
    vectors = run.searcher.item_vectors(kinds(ranked))
    if not vectors:
        return ranked
    dimensions = len(next(iter(vectors.values())))
    matrix = np.zeros((len(ranked), dimensions), dtype=np.float32)
    for row, item in enumerate(ranked):
        if item.id in vectors:  # one deleted since it was ranked is redundant with nothing
            matrix[row] = vectors[item.id]
    scores = np.array([item.score for item in ranked], dtype=np.float64)
    trade_off = run.tuning.diversity
    placements = mmr_order(scores, matrix, trade_off)
    # gain = (1 - t) x score / top - t x redundancy; on the score's scale: score - t / (1 - t) x top x redundancy.
    penalty = trade_off / (1.0 - trade_off) * float(np.max(scores))
    moved_down = []
    for new_rank, placement in enumerate(placements, start=1):
        item = ranked[placement.index]
        item.components["value"] = item.score
        item.components["redundancy"] = placement.redundancy
        item.score = round(item.score - penalty * placement.redundancy, 6)
        if new_rank > placement.index + 1 and placement.closest is not None:
            moved_down.append(
                {
                    "id": item.id,
                    "from": placement.index + 1,
                    "to": new_rank,
                    "closest": ranked[placement.closest].id,
                    "cosine": round(placement.redundancy, 3),
                }
            )
    detail = {"trade_off": trade_off, "ranked": len(ranked), "moved_down": moved_down[:20]}
    run.trace.append(TraceStep(step="diversify", detail=detail))
    return [ranked[p.index] for p in placements]
