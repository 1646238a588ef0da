"""Turn-level retrieval metrics: R@k, All@k, nDCG@10 and recall within a token budget."""

from __future__ import annotations

import math
from collections.abc import Sequence

TOKEN_BUDGETS = (256, 512, 1024, 2048)


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def all_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(ranked[:k])
    return float(all(e in top for e in evidence))


def ndcg_at(ranked: Sequence[str], evidence: Sequence[str], k: int = 10) -> float:
    relevant = set(evidence)
    dcg = sum(1 / math.log2(i + 2) for i, turn in enumerate(ranked[:k]) if turn in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal


def recall_within_tokens(units: Sequence[tuple[int, Sequence[str]]], evidence: Sequence[str], budget: int) -> float:
    """`units` are returned texts in rank order as (tokens, turns they cover); stop at the budget."""
    covered: set[str] = set()
    used = 0
    for tokens, turns in units:
        if used + tokens > budget:
            break
        used += tokens
        covered.update(turns)
    return sum(1 for e in evidence if e in covered) / len(evidence)


def turn_metrics(
    ranked: Sequence[str], units: Sequence[tuple[int, Sequence[str]]], evidence: Sequence[str]
) -> dict[str, float]:
    metrics = {f"R@{k}": recall_at(ranked, evidence, k) for k in (5, 10, 25)}
    metrics["All@10"] = all_at(ranked, evidence, 10)
    metrics["nDCG@10"] = ndcg_at(ranked, evidence)
    for budget in TOKEN_BUDGETS:
        metrics[f"R@{budget}tok"] = recall_within_tokens(units, evidence, budget)
    return metrics
