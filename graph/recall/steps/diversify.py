"""Diversify: reorder the ranking by maximal marginal relevance (graph/recall/diversity.py)."""

from __future__ import annotations

import numpy as np

from graph.recall.candidates import Ranked, kinds
from graph.recall.diversity import asks_for_state, latest_version_first, mmr_order, newer_restatements_first
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
    newer_first: list[str] = []
    latest: str | None = None
    final = {p.index: round(scores[p.index] - penalty * p.redundancy, 6) for p in placements}
    times = [max((p.occurred_at for p in item.provenance if p.occurred_at), default=None) for item in ranked]
    speakers = [frozenset(p.speaker for p in item.provenance if p.speaker) for item in ranked]
    if run.tuning.restatement > 0:
        reordered = newer_restatements_first(
            placements, scores, times, speakers, run.tuning.restatement, run.tuning.restatement_closeness
        )
        # Only a restatement moves up; the items it passed each go down one.
        was = {p.index: rank for rank, p in enumerate(placements)}
        newer_first = [ranked[p.index].id for rank, p in enumerate(reordered) if rank < was[p.index]][:20]
        for above, placement in enumerate(reordered[:-1]):
            # A restatement moved up takes the score of the item it now stands above (scores fall with the rank).
            final[placement.index] = max(final[placement.index], final[reordered[above + 1].index])
        placements = reordered
    if run.tuning.latest > 0 and asks_for_state(run.request.query):
        reordered = latest_version_first(
            placements, scores, matrix, times, speakers, run.tuning.latest, run.tuning.latest_closeness
        )
        if reordered[0] is not placements[0]:
            latest = ranked[reordered[0].index].id
            # It takes the score of the item it now stands above (scores fall with the rank).
            final[reordered[0].index] = max(final[reordered[0].index], final[placements[0].index])
            placements = reordered
    moved_down = []
    for new_rank, placement in enumerate(placements, start=1):
        item = ranked[placement.index]
        item.components["value"] = item.score
        item.components["redundancy"] = placement.redundancy
        item.score = final[placement.index]
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
    detail = {"trade_off": trade_off, "ranked": len(ranked), "moved_down": moved_down[:20], "newer_first": newer_first,
              "latest_first": latest}  # fmt: skip
    run.trace.append(TraceStep(step="diversify", detail=detail))
    return [ranked[p.index] for p in placements]
