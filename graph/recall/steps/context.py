"""Context: the knowledge of the utterances around the top items' episodes (the turn after a question holds its
answer, a follow-up says what "this" was)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.recall.candidates import Candidate
from graph.recall.models import ItemKind, MemoryType
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass(frozen=True)
class ContextSearch:
    anchors: dict[str, int]  # episode id -> rank of the top item it proves
    rows: list[dict[str, Any]]


class Context(Step[ContextSearch]):
    """Adds the neighbouring utterances' knowledge (list "context"), ranked by the anchor's rank, then by closeness
    to the query."""

    name = "context"

    def runs(self, run: RecallRun) -> bool:
        return run.config.evidence.context_items > 0

    def find(self, run: RecallRun) -> ContextSearch:
        anchors: dict[str, int] = {}
        for rank, item in enumerate(run.ranked[: run.config.evidence.context_items], start=1):
            for proof in item.provenance:
                anchors.setdefault(proof.episode_id, rank)
        return ContextSearch(anchors, run.searcher.episode_context(anchors, run.vector))

    def apply(self, run: RecallRun, found: ContextSearch | None) -> None:
        if found is not None:
            add_context(run, found)


def add_context(run: RecallRun, search: ContextSearch) -> None:
    entries: list[tuple[int, int, float, str, ItemKind]] = []
    similarities: dict[str, float | None] = {}
    for record in search.rows:
        anchor_rank, distance = int(record["anchor_rank"]), int(record["distance"])
        for proposition in record["propositions"]:
            similarities[proposition["id"]] = proposition["similarity"]
            similarity = float(proposition["similarity"] or 0.0)
            entries.append((anchor_rank, distance, -similarity, proposition["id"], ItemKind.PROPOSITION))
        if int(record["knowledge"]) == 0 and MemoryType.EPISODIC in run.types:
            similarities[record["episode_id"]] = record["episode_similarity"]
            similarity = float(record["episode_similarity"] or 0.0)
            entries.append((anchor_rank, distance, -similarity, record["episode_id"], ItemKind.EPISODE))
    entries.sort()
    candidates = run.candidates
    new = 0
    for rank, (_, _, _, item_id, kind) in enumerate(entries, start=1):
        if item_id not in candidates:
            new += 1
            candidates[item_id] = Candidate(item_id, kind)
        candidates[item_id].add("context", rank)
        known = similarities[item_id]
        if known is not None:
            candidates[item_id].similarity = float(known)
    run.trace.add("context", anchors=len(search.anchors), items=len(entries), new=new)
    run.unranked_evidence += len(entries)
