"""Current versions above: a returned statement that a revision replaced ("I moved to Lisbon", revised by "I moved from
Lisbon to Madrid": consolidation's revisions step, graph/consolidation/revisions.py) has its current version just
above it, moved up or brought in.

The replaced statement stays a candidate (recall/candidate_proposition.cypher): it still proves its episode and is
found by its words, so a question about what held then ("When did Tom move to Lisbon?") still finds it, one place
down. A question about the state finds the current fact first whatever its wording, because whatever matched the old
value now stands below the new one. The order changes, not the membership (docs/supersession.md)."""

from __future__ import annotations

from typing import Any

from graph.recall.candidates import Ranked
from graph.recall.hydration import hydrate_into
from graph.recall.models import ItemKind
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class CurrentVersionsAbove(Step[dict[str, str]]):
    name = "current versions above"

    def runs(self, run: RecallRun) -> bool:
        return run.config.order.current_versions and bool(self.replaced(run))

    def replaced(self, run: RecallRun) -> list[str]:
        """The replaced statements whose current versions are looked up: those within the request's limit."""
        return [item.id for item in run.ranked[: run.limit] if item.superseded_by]

    def find(self, run: RecallRun) -> dict[str, str]:
        replaced = self.replaced(run)
        current = {row["id"]: row["current"] for row in run.searcher.current_versions(replaced)}
        ranked = {item.id for item in run.ranked}
        wanted = sorted({c for c in current.values() if c not in ranked and c not in run.searcher.hydrated})
        hydrate_into(run, "propositions", [(c, None) for c in wanted])
        return current

    def apply(self, run: RecallRun, found: dict[str, str] | None) -> None:
        if not found:
            return
        by_id = {item.id: item for item in run.ranked}
        ranking: list[Ranked] = []
        placed: set[str] = set()
        moved: dict[str, str] = {}
        for item in run.ranked:
            if item.id in placed:
                continue  # a current version already moved above what it replaced
            head = found.get(item.id)
            current = None if head is None else by_id.get(head) or brought_in(run, head, item)
            if current is not None:
                # As high and as relevant as what it replaced (it answers the same question now), whether it stood
                # above already or comes here: the relevance gate never keeps the replaced one without it.
                current.score = max(current.score, item.score)
                if item.relevance is not None:
                    current.relevance = max(current.relevance or 0.0, item.relevance)
                if current.id not in placed:
                    ranking.append(current)
                    placed.add(current.id)
                    moved[current.id] = item.id
            ranking.append(item)
            placed.add(item.id)
        run.ranked = ranking
        run.trace.add("current versions above", above=moved)


def brought_in(run: RecallRun, current_id: str, replaced: Ranked) -> Ranked | None:
    """The current version as an item of the ranking (None: deleted or out of the request's scope)."""
    row: dict[str, Any] | None = run.searcher.hydrated.get(current_id)
    if row is None:
        return None
    return Ranked(
        id=current_id,
        kind=ItemKind.PROPOSITION,
        text=row["text"],
        score=replaced.score,
        components={"similarity": float(row["similarity"] or 0.0)},
        provenance=row["provenance"],
        valid_from=row["valid_from"],
        found_by=[f"current version of {replaced.id}"],
    )
