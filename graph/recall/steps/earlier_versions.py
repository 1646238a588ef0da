"""Earlier versions below the current one: each returned proposition that a revision made current (consolidation's
revisions step, graph/consolidation/revisions.py: "I moved from Lisbon to Madrid" revises "I moved to Lisbon") is
followed by what it replaced, marked with the current one's id and when it stopped holding.

A hit on a revised statement counts for its current version (the recall statements' access path), so the current
fact comes first whatever the question's wording; this step keeps what held before in sight instead of hiding it. A
question about the past ("When did Tom move to Lisbon?") finds its answer one item down, and a revision linked in error
costs one place, not the statement (docs/supersession.md)."""

from __future__ import annotations

from typing import Any

from graph.recall.candidates import Ranked
from graph.recall.hydration import hydrate_into, item_time
from graph.recall.models import ItemKind
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step

# Versions brought back for a question about an earlier state ("before", "used to"), whatever the configured number:
# every one the statement reads (three back), since the question asks for them.
EARLIER_STATE_VERSIONS = 3


def _versions(run: RecallRun) -> int:
    """Earlier versions to place below each current fact: the configured number, all for a question about before."""
    asked = EARLIER_STATE_VERSIONS if run.tools.questions.asks_for_earlier_state(run.request.query) else 0
    return max(run.config.order.earlier_versions, asked)


class EarlierVersionsBelow(Step[list[dict[str, Any]]]):
    name = "earlier versions below"

    def runs(self, run: RecallRun) -> bool:
        # The propositions first: the question's parse is read only when there is something to place
        return any(i.kind is ItemKind.PROPOSITION for i in run.ranked) and _versions(run) > 0

    def find(self, run: RecallRun) -> list[dict[str, Any]]:
        head = [item.id for item in run.ranked[: run.limit] if item.kind is ItemKind.PROPOSITION]
        ranked = {item.id for item in run.ranked}
        versions = [row for row in run.searcher.earlier_versions(head) if row["id"] not in ranked]
        hydrate_into(run, "propositions", [(r["id"], None) for r in versions if r["id"] not in run.searcher.hydrated])
        return versions

    def apply(self, run: RecallRun, found: list[dict[str, Any]] | None) -> None:
        if not found:
            return
        below: dict[str, list[Ranked]] = {}
        placed: set[str] = set()
        for version in found:
            row = run.searcher.hydrated.get(version["id"])
            taken = below.setdefault(version["current"], [])
            # A deleted or out-of-scope version has no row; one version follows only its nearest current one.
            if row is None or version["id"] in placed or len(taken) >= _versions(run):
                continue
            placed.add(version["id"])
            taken.append(
                Ranked(
                    id=version["id"],
                    kind=ItemKind.PROPOSITION,
                    text=row["text"],
                    score=0.0,  # set below
                    components={"similarity": float(row["similarity"] or 0.0)},
                    provenance=row["provenance"],
                    valid_from=row["valid_from"],
                    found_by=[f"earlier version of {version['current']}"],
                    superseded_by=version["current"],
                    valid_to=item_time(version["valid_to"]),
                )
            )
        ranking: list[Ranked] = []
        for index, item in enumerate(run.ranked):
            ranking.append(item)
            # The next item's score: scores still fall with the rank.
            following = run.ranked[index + 1].score if index + 1 < len(run.ranked) else item.score
            for earlier in below.get(item.id, []):
                # As relevant as the fact it stands beside (it answers the same question as it was before): it
                # neither opens an answer the gate would close nor closes one.
                earlier.score, earlier.relevance = following, item.relevance
                ranking.append(earlier)
        run.ranked = ranking
        run.trace.add("earlier versions below", placed={k: [e.id for e in v] for k, v in below.items() if v})


class EarlierStateFirst(Step[None]):
    """A question about what held before a change ("Where did Dana live before Berlin?", "my old car"): within each
    fact that changed, the versions it replaced (by a revision or a correction), each marked with when it stopped
    holding, go just above its current version, nearest first; everything else keeps its place. A replaced statement
    whose current version is not among the ranked stays where its own relevance put it: a question about an earlier
    state of one thing does not lift the replaced statements of every other thing memory holds (moving them all first
    cost every such LoCoMo question its evidence). Each moved item takes its current version's score when higher
    (scores still fall with the rank); the trace names them."""

    name = "earlier state first"

    def runs(self, run: RecallRun) -> bool:
        replaced_below = any(i.superseded_by for i in run.ranked[1:])
        return replaced_below and run.tools.questions.asks_for_earlier_state(run.request.query)

    def apply(self, run: RecallRun, found: None) -> None:
        by_id = {item.id: item for item in run.ranked}

        def current_of(item: Ranked) -> Ranked | None:
            """The ranked current version a replaced item leads to along the replacements ranked with it."""
            seen: set[str] = set()
            while item.superseded_by and item.superseded_by in by_id and item.id not in seen:
                seen.add(item.id)
                item = by_id[item.superseded_by]
            return item if not item.superseded_by and seen else None

        earlier: dict[str, list[Ranked]] = {}  # current id -> its replaced versions, in ranked order
        for item in run.ranked:
            current = current_of(item) if item.superseded_by else None
            if current is not None:
                earlier.setdefault(current.id, []).append(item)
        moved = {item.id for versions in earlier.values() for item in versions}
        ranking: list[Ranked] = []
        for item in run.ranked:
            if item.id in moved:
                continue
            for version in earlier.get(item.id, []):  # its relevance stays its own: how it bears on the words
                version.score = max(version.score, item.score)
                ranking.append(version)
            ranking.append(item)
        run.ranked = ranking
        run.trace.add("earlier state first", moved_up={current: [v.id for v in vs] for current, vs in earlier.items()})
