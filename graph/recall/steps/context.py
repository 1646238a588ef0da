"""Context: the knowledge of the utterances around the top items' episodes (the turn after a question holds its
answer, a follow-up says what "this" was)."""

from __future__ import annotations

from graph.recall.candidates import Candidate, Ranked
from graph.recall.models import ItemKind, MemoryType, TraceStep
from graph.recall.run import RecallRun


def add_context(run: RecallRun, ranked: list[Ranked]) -> int:
    """Adds the neighbouring utterances' knowledge, ranked by the anchor's rank, then by closeness to the query.
    Returns how many context items there were."""
    anchors: dict[str, int] = {}
    for rank, item in enumerate(ranked[: run.tuning.context_items], start=1):
        for proof in item.provenance:
            anchors.setdefault(proof.episode_id, rank)
    entries: list[tuple[int, int, float, str, ItemKind]] = []
    similarities: dict[str, float | None] = {}
    for record in run.searcher.episode_context(anchors, run.vector):
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
    run.trace.append(TraceStep(step="context", detail={"anchors": len(anchors), "items": len(entries), "new": new}))
    return len(entries)
