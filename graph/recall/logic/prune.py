"""Prune: the ranked items within the limit and token budget, or none when the best misses the minimum relevance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.recall.candidates import Ranked
from graph.recall.models import RecallItem


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
