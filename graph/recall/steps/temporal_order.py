"""Temporal ordering of the final ranking (graph/recall/logic/temporal_order.py): what someone says later updates
what they said before.

- Newer restatements first: an item restating one above it (same speaker, close in meaning), said later, goes just
  above it.
- Latest version first: for a question about a state ("currently", "most recently", "previous"), the latest item about
  what the first item is about goes first.
A moved item takes the score of the item it now stands above, so scores fall with the rank."""

from __future__ import annotations

from datetime import datetime

from graph.recall.candidates import Ranked
from graph.recall.hydration import ranking_vectors
from graph.recall.logic.mmr import Placement, closest_above, value_scores
from graph.recall.logic.temporal_order import latest_version_first, newer_restatements_first
from graph.recall.query import asks_for_state
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


def _times(ranked: list[Ranked]) -> list[datetime | None]:
    return [max((p.occurred_at for p in item.provenance if p.occurred_at), default=None) for item in ranked]


def _speakers(ranked: list[Ranked]) -> list[frozenset[str]]:
    return [frozenset(p.speaker for p in item.provenance if p.speaker) for item in ranked]


class NewerRestatementsFirst(Step[None]):
    name = "newer restatements first"

    def runs(self, run: RecallRun) -> bool:
        return run.config.order.restatement > 0 and len(run.ranked) > 1

    def apply(self, run: RecallRun, found: None) -> None:
        ranked, config = run.ranked, run.config
        matrix = ranking_vectors(run)
        if matrix is None:
            return
        placements = closest_above(matrix)
        reordered = newer_restatements_first(
            placements, value_scores(ranked), _times(ranked), _speakers(ranked), config.order.restatement,
            config.order.restatement_closeness,
        )  # fmt: skip
        moved = [ranked[p.index].id for rank, p in enumerate(reordered) if _moved_up(reordered, rank)][:20]
        run.ranked = _reordered(ranked, reordered)
        run.trace.add("newer restatements first", moved_up=moved)


class LatestVersionFirst(Step[None]):
    name = "latest version first"

    def runs(self, run: RecallRun) -> bool:
        return run.config.order.latest > 0 and len(run.ranked) > 1 and asks_for_state(run.request.query)

    def apply(self, run: RecallRun, found: None) -> None:
        ranked, config = run.ranked, run.config
        matrix = ranking_vectors(run)
        if matrix is None:
            return
        placements = [Placement(index, 0.0, None) for index in range(len(ranked))]
        reordered = latest_version_first(
            placements, value_scores(ranked), matrix, _times(ranked), _speakers(ranked), config.order.latest,
            config.order.latest_closeness,
        )  # fmt: skip
        latest = None
        if reordered[0] is not placements[0]:
            first = ranked[reordered[0].index]
            latest, first.score = first.id, max(first.score, ranked[0].score)
            run.ranked = [ranked[p.index] for p in reordered]
        run.trace.add("latest version first", latest_first=latest)


def _moved_up(order: list[Placement], rank: int) -> bool:
    """Whether the item at `rank` now stands above an item that stood above it before."""
    index = order[rank].index
    return any(p.index < index for p in order[rank + 1 :])


def _reordered(ranked: list[Ranked], order: list[Placement]) -> list[Ranked]:
    """The items in their new order; one moved up takes the score of the item it now stands above (scores fall with
    the rank)."""
    items = [ranked[p.index] for p in order]
    # From the bottom up, so a chain of restatements (each moved above the one it restates) still falls.
    for below in range(len(items) - 1, 0, -1):
        items[below - 1].score = max(items[below - 1].score, items[below].score)
    return items
