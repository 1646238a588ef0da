"""MMR: reorder the ranking by maximal marginal relevance (graph/recall/logic/mmr.py), so a near-duplicate of an
item above gives way to the next distinct memory."""

from __future__ import annotations

import numpy as np

from graph.recall.hydration import ranking_vectors
from graph.recall.logic.mmr import mmr_order
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class Mmr(Step[None]):
    """Each item's score becomes its final one, the value function's score less its redundancy penalty (the MMR gain
    on the value function's scale), so scores fall with the rank; the components keep `value` (the score before) and
    `redundancy` (its closest cosine to an item placed above it). The trace lists the items moved down, each with
    that closest item."""

    name = "mmr"

    def runs(self, run: RecallRun) -> bool:
        return run.config.order.diversity > 0 and len(run.ranked) > 1

    def apply(self, run: RecallRun, found: None) -> None:
        ranked = run.ranked
        matrix = ranking_vectors(run)
        if matrix is None:
            return
        scores = np.array([item.score for item in ranked], dtype=np.float64)
        trade_off = run.config.order.diversity
        placements = mmr_order(scores, matrix, trade_off)
        # gain = (1 - t) x score / top - t x redundancy; on the score's scale: score - t / (1 - t) x top x redundancy.
        penalty = trade_off / (1.0 - trade_off) * float(np.max(scores))
        moved_down = []
        for new_rank, placement in enumerate(placements, start=1):
            item = ranked[placement.index]
            item.components["value"] = item.score
            item.components["redundancy"] = placement.redundancy
            item.score = round(scores[placement.index] - penalty * placement.redundancy, 6)
            if new_rank > placement.index + 1 and placement.closest is not None:
                closest = ranked[placement.closest].id
                moved = {"id": item.id, "from": placement.index + 1, "to": new_rank, "closest": closest}
                moved_down.append(moved | {"cosine": round(placement.redundancy, 3)})
        run.ranked = [ranked[p.index] for p in placements]
        run.trace.add("mmr", trade_off=trade_off, ranked=len(ranked), moved_down=moved_down[:20])
