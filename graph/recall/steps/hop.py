"""Hop: while the controller sees concepts in the top items not yet expanded (and the top is not confident yet),
expand them with decayed activation and rank again."""

from __future__ import annotations

from collections.abc import Callable

from graph.recall.candidates import Ranked, kinds
from graph.recall.controller import HopController
from graph.recall.models import ItemKind, TraceStep
from graph.recall.run import RecallRun
from graph.recall.steps.abstract import concepts_to_expand, merge_expansion


def hop(
    run: RecallRun, ranked: list[Ranked], controller: HopController, rerank: Callable[[], list[Ranked]]
) -> list[Ranked]:
    tuning = run.tuning
    while True:
        top_ids = [item.id for item in ranked[:5] if item.kind is ItemKind.PROPOSITION]
        # The ranking's vectors, for diversifying it, come in the controller's statement (after a further hop,
        # only the new items').
        head = kinds(ranked) if tuning.diversity > 0 else []
        new_concepts = [c for c in run.searcher.top_items(top_ids, head) if c.id not in run.activated]
        top_similarity = max((item.components["similarity"] for item in ranked[:5]), default=0.0)
        decision = controller.decide(run.hops, run.request.hop_limit, len(new_concepts), top_similarity)
        detail = {"another_hop": decision.another, "reason": decision.reason}
        run.trace.append(TraceStep(step=f"controller after hop {run.hops}", detail=detail))
        if not decision.another:
            return ranked
        run.hops += 1
        decay = tuning.hop_decay ** (run.hops - 1)
        # A later hop carries less activation, and gets a share of the mention budget to match.
        activation = concepts_to_expand(
            tuning,
            {c.id: decay * c.idf for c in new_concepts},
            {c.id: c.df for c in new_concepts},
            budget=round(decay * tuning.expand_mentions),
        )
        run.activated |= activation.keys()
        rows = run.searcher.expand(activation, run.vector, tuning.per_concept)
        merge_expansion(rows, run.candidates, f"hop:{run.hops}")
        detail = {"concepts": sorted(c.key for c in new_concepts)[:20]}
        run.trace.append(TraceStep(step=f"hop {run.hops}", detail=detail))
        ranked = rerank()
        run.trace.append(TraceStep(step=f"rank after hop {run.hops}", detail={"ranked": len(ranked)}))
