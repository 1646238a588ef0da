"""Hop: while the controller sees concepts in the top items not yet expanded (and the top is not confident yet),
expand them with decayed activation (list "hop:<n>") and rank again."""

from __future__ import annotations

from graph.recall.candidates import kinds
from graph.recall.logic.abstract import concepts_to_expand, merge_expansion
from graph.recall.models import ItemKind
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step
from graph.recall.steps.rank import rank


class Hop(Step[None]):
    name = "hop"

    def apply(self, run: RecallRun, found: None) -> None:
        config = run.config
        while True:
            top = run.ranked[: config.hop.hop_top_items]
            top_ids = [item.id for item in top if item.kind is ItemKind.PROPOSITION]
            # The ranking's vectors, for the steps that reorder it by them, come in the controller's statement (after
            # a further hop, only the new items').
            head = kinds(run.ranked) if config.order.needs_vectors else []
            new_concepts = [c for c in run.searcher.top_items(top_ids, head) if c.id not in run.activated]
            top_similarity = max((item.components["similarity"] for item in top), default=0.0)
            decision = run.tools.controller.decide(run.hops, run.hop_limit, len(new_concepts), top_similarity)
            run.trace.add(f"controller after hop {run.hops}", another_hop=decision.another, reason=decision.reason)
            if not decision.another:
                return
            run.hops += 1
            decay = config.hop.hop_decay ** (run.hops - 1)
            # A later hop carries less activation, and gets a share of the mention budget to match.
            activation = concepts_to_expand(
                config,
                {c.id: decay * c.idf for c in new_concepts},
                {c.id: c.df for c in new_concepts},
                budget=round(decay * config.abstraction.expand_mentions),
            )
            run.activated |= activation.keys()
            rows = run.searcher.expand(activation, run.vector, config.abstraction.per_concept)
            merge_expansion(rows, run.candidates, f"hop:{run.hops}")
            run.trace.add(f"hop {run.hops}", concepts=sorted(c.key for c in new_concepts)[:20])
            run.ranked = rank(run)
            run.trace.add(f"rank after hop {run.hops}", ranked=len(run.ranked))
