"""Prune: the best items that fit the request's item limit and token budget, or none when no item reaches the minimum
relevance or the question names what memory never mentions; the rest with the reason. When nothing is returned, the
run says why (graph/recall/relevance_model.py `nothing_relevant`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.recall.candidates import Ranked
from graph.recall.models import RecallItem
from graph.recall.relevance_model import QueryCoverage, nothing_relevant
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
            "weights": run.config.value.model_dump(),
            "ranked": len(run.ranked),
            "returned": len(run.items),
            "pruned": run.pruned[:20],
            "cypher_statements": run.searcher.queries,
        }
        if run.reason:
            detail["reason"] = run.reason
        run.trace.add("rerank and prune", **detail)


def prune(
    ranked: list[Ranked], budget: int, limit: int, count_tokens: Callable[[str], int], min_relevance: float = 0.0
) -> tuple[list[RecallItem], list[dict[str, Any]]]:
    """The ranked items within the limit and budget, or none when no item reaches `min_relevance`: the minimum gates
    the answer, not each item (a lower item of an answered question is often part of the answer: its relevance is
    returned for the caller to weigh)."""
    kept: list[RecallItem] = []
    pruned: list[dict[str, Any]] = []
    best = max((item.relevance for item in ranked if item.relevance is not None), default=None)
    if best is not None and best < min_relevance:
        return [], [{"id": item.id, "reason": f"best relevance {best:.3f} below {min_relevance}"} for item in ranked]
    used = 0
    for item in ranked:
        if len(kept) >= limit:
            pruned.append({"id": item.id, "reason": f"beyond the limit of {limit} items"})
            continue
        tokens = count_tokens(item.text)
        if used + tokens > budget:
            pruned.append({"id": item.id, "reason": f"{tokens} tokens would exceed the budget of {budget}"})
        else:
            kept.append(item.item(tokens))
            used += tokens
    return kept, pruned
