"""Prune: the best items that fit the request's item limit and token budget, or none when no item reaches the minimum
relevance or the question names what memory never mentions; the rest with the reason. When nothing is returned, the
run says why (graph/recall/logic/relevance.py `nothing_relevant`)."""

from __future__ import annotations

from graph.recall.logic.prune import prune
from graph.recall.logic.relevance import QueryCoverage, nothing_relevant
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class Prune(Step[None]):
    name = "prune"

    def apply(self, run: RecallRun, found: None) -> None:
        minimum, coverage = run.min_relevance, run.coverage or QueryCoverage([], {}, [], [])
        best = max((r.relevance for r in run.ranked if r.relevance is not None), default=None)
        if run.unfilled and run.request.min_relevance is None:
            # Memory knows the subject, and nothing it knows fills what the question asks (facts first).
            run.items, run.pruned = [], [{"id": r.id, "reason": run.unfilled} for r in run.ranked]
            run.reason = run.unfilled
        elif coverage.unmentioned:
            # Whatever resembles the question, memory holds nothing about what it names.
            unmentioned = ", ".join(coverage.unmentioned)
            run.items, run.pruned = (
                [],
                [{"id": r.id, "reason": f"memory never mentions {unmentioned}"} for r in run.ranked],
            )
        else:
            run.items, run.pruned = prune(run.ranked, run.token_budget, run.limit, run.tools.count_tokens, minimum)
        if (
            not run.items
            and not run.reason
            and (not run.ranked or coverage.unmentioned or (best is not None and best < minimum))
        ):
            run.reason = nothing_relevant(coverage, best, minimum)
        detail = {
            "weights": run.config.scoring.value.model_dump(),
            "ranked": len(run.ranked),
            "returned": len(run.items),
            "pruned": run.pruned[:20],
            "cypher_statements": run.searcher.queries,
        }
        if run.reason:
            detail["reason"] = run.reason
        run.trace.add("rerank and prune", **detail)
