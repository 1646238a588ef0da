"""Prune: the best items that fit the request's item limit and token budget; the rest with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.recall.candidates import Ranked
from graph.recall.models import RecallItem
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class Prune(Step[None]):
    name = "prune"

    def apply(self, run: RecallRun, found: None) -> None:
        run.items, run.pruned = prune(run.ranked, run.token_budget, run.limit, run.tools.count_tokens)
        detail = {
            "weights": run.config.value.model_dump(),
            "ranked": len(run.ranked),
            "returned": len(run.items),
            "pruned": run.pruned[:20],
            "cypher_statements": run.searcher.queries,
        }
        run.trace.add("rerank and prune", **detail)


def prune(
    ranked: list[Ranked], budget: int, limit: int, count_tokens: Callable[[str], int]
) -> tuple[list[RecallItem], list[dict[str, Any]]]:
    kept: list[RecallItem] = []
    pruned: list[dict[str, Any]] = []
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
