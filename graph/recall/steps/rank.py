"""Rank: fuse the candidates' lists by reciprocal rank, hydrate the best, and score them by the value function."""

from __future__ import annotations

from graph.recall.candidates import Candidate, Ranked
from graph.recall.goal_match import fit_goals
from graph.recall.hydration import as_episodes, hydrate_into, item_time
from graph.recall.models import ItemKind, MemoryType
from graph.recall.run import RecallRun
from graph.recall.searcher import TextLabel
from graph.recall.steps.base import Step
from graph.recall.value import cosine, focus, prescription_ceiling, recency, rrf

_LABELS: dict[ItemKind, TextLabel] = {
    ItemKind.PROPOSITION: "propositions",
    ItemKind.EPISODE: "episodes",
    ItemKind.PRESCRIPTION: "prescriptions",
}


class Rank(Step[None]):
    """Ranks the candidates into `run.ranked`. `again`: only when evidence joined since the last ranking (the
    context group's lists), recorded as "rank with context"."""

    name = "rank"

    def __init__(self, again: bool = False) -> None:
        self.again = again

    def runs(self, run: RecallRun) -> bool:
        return not self.again or run.unranked_evidence > 0

    def apply(self, run: RecallRun, found: None) -> None:
        run.ranked = rank(run)
        if self.again:
            run.trace.add("rank with context", ranked=len(run.ranked))
        else:
            run.trace.add("rank", ranked=len(run.ranked), hydrated=len(run.searcher.hydrated))


def rank(run: RecallRun) -> list[Ranked]:
    """The pool of best fused candidates, hydrated and scored by the value function, best first."""
    run.unranked_evidence = 0
    config = run.config
    pool = fused_pool(run)
    rows = run.searcher.hydrated  # rows fetched by an earlier hop are not fetched again
    for kind in ItemKind:
        # A similarity already computed is passed along: reading an item's vector is most of hydrating it.
        hydrate_into(run, _LABELS[kind], [(c.id, c.similarity) for _, c in pool if c.kind is kind and c.id not in rows])
    # Procedures and facts are found by different lists (a prescription by its own words, its meaning and its
    # intent's; a proposition by those and its episodes', its concepts' and its neighbouring turns'), so their fused
    # scores are not on one scale: a fact is relevant relative to the best fact, a prescription relative to what its
    # own lists give at most (first in each, fully matching), so that the best procedure is not behind a fact only
    # because fewer lists search procedures, and an unrelated one stays low.
    max_rrf = next((f for f, c in pool if c.kind is not ItemKind.PRESCRIPTION), 0.0) or 1.0
    max_activation = max((c.activation for _, c in pool), default=0.0) or 1.0
    times = [r["valid_from"] for r in rows.values() if r["valid_from"] is not None]
    oldest, newest = (min(times), max(times)) if times else (None, None)
    w = config.scoring.value
    ceiling = prescription_ceiling(config.seed.list_weights, config.seed.rrf_k)
    # Activation spreads over concepts, which a prescription does not mention: its 0 there is a part it lacks, not a
    # low one (it put a fact sharing one word before the one matching procedure). A procedure is scored on the parts it
    # has, over the weight they hold, so on the scale of an item scored on all.
    total_weight = w.relevance + w.similarity + w.activation + w.confidence + w.importance + w.recency
    unactivated_scale = total_weight / (total_weight - w.activation) if total_weight > w.activation else 1.0
    items = []
    for fused_rank, candidate in pool:
        if candidate.id not in rows:
            continue  # deleted or superseded since it was found
        row = rows[candidate.id]
        components = {
            "relevance": fused_rank / (ceiling if candidate.kind is ItemKind.PRESCRIPTION else max_rrf),
            "similarity": cosine(row["similarity"]),
            "activation": candidate.activation / max_activation,
            "confidence": float(row["confidence"]),
            "importance": float(row["importance"]),
            "recency": recency(row["valid_from"], oldest, newest),
        }
        # Prescription rows carry no count (focus 1): a prescription is its trajectory's one lesson, on its own scale.
        components["focus"] = focus(int(row.get("statements", 1)), w.focus, w.focus_after)
        weighed = w.relevance * components["relevance"] + w.similarity * components["similarity"]
        weighed += w.confidence * components["confidence"] + w.importance * components["importance"]
        weighed += w.recency * components["recency"]
        if candidate.kind is ItemKind.PRESCRIPTION:
            weighed *= unactivated_scale
        else:
            weighed += w.activation * components["activation"]
        score = components["focus"] * weighed
        items.append(
            Ranked(
                id=candidate.id,
                kind=candidate.kind,
                text=row["text"],
                score=round(score, 6),
                components=components,
                provenance=row["provenance"],
                valid_from=row["valid_from"],
                found_by=list(candidate.found_by),
                # A statement a revision replaced is still a candidate; it says so wherever it is returned.
                superseded_by=row.get("superseded_by"),
                valid_to=item_time(row.get("valid_to")),
            )
        )
    # Among procedures, those recorded for the task asked (other things in it) before those for another kind of task.
    goals = {i.id: rows[i.id].get("intent") for i in items if i.kind is ItemKind.PRESCRIPTION}
    fit_goals(items, goals, run.request.query, config.scoring.goal_substitution, config.scoring.goal_strength)
    items.sort(key=lambda item: (-item.score, item.id))
    if run.types and run.types[0] is MemoryType.EPISODIC:
        return as_episodes(items)
    return items


def fused_pool(run: RecallRun) -> list[tuple[float, Candidate]]:
    """The candidates of the kinds admitted, by fused rank, as many as the rerank pool holds."""
    config = run.config
    # Ties broken by id throughout: the same memory answers the same query the same way, whatever the
    # order the store hands rows back in.
    admitted = admitted_kinds(run.types)
    fused = sorted(
        (
            (rrf(c.ranks, config.seed.list_weights, config.seed.rrf_k, c.strengths), c)
            for c in run.candidates.values()
            if c.kind in admitted
        ),
        key=lambda fc: (-fc[0], fc[1].id),
    )
    return fused[: config.scoring.rerank_pool]


def admitted_kinds(types: list[MemoryType]) -> set[ItemKind]:
    """The item kinds the memory types searched may return: the types are a filter, so a step that brings candidates
    of another kind (concepts' knowledge, neighbouring utterances, a hop) does not put them in the answer.
    Propositions stand for their episodes in episodic mode."""
    kinds = set()
    if MemoryType.SEMANTIC in types or MemoryType.EPISODIC in types:
        kinds.add(ItemKind.PROPOSITION)
    if MemoryType.EPISODIC in types:
        kinds.add(ItemKind.EPISODE)
    if MemoryType.PROCEDURAL in types:
        kinds.add(ItemKind.PRESCRIPTION)
    return kinds
