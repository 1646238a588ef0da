"""The value function that ranks recalled items, and its weights."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class ValueWeights:
    """Relative weights (they need not sum to 1: rankings and diversification use scores relative to the best).

    Activation 0.20 -> 0.10 and similarity 0.10 -> 0.15, relevance 0.60 -> 0.50 (LoCoMo dev, bench.locomo_recall on
    one fresh ingestion; before: bench/results/locomo_recall_before_weights.json): R@10 all-no-adv 74.5 -> 75.4,
    multi-hop 49.5 -> 50.9, open-domain 45.9 -> 48.9, adversarial 72.2 -> 72.4, temporal 84.2 -> 83.7; adversarial
    R@5 58.8 -> 55.5. Concept activation brings candidates in (expansion); as a ranking signal it favoured many items
    on one topic over the several topics a gathering question needs."""

    relevance: float = 0.50  # reciprocal-rank fusion of dense, full-text and episode-level evidence
    similarity: float = 0.15  # exact cosine between the query and the item
    activation: float = 0.10  # spread from the query's concepts over associations
    confidence: float = 0.04
    importance: float = 0.03
    recency: float = 0.03


RRF_K = 20
# Lexical evidence counts double: rare words (names of events, places, objects) are what pins a memory
# down, and dense similarity alone drifts to the topic (it also rewards a question's false premise).
# The neighbouring turns of the top items' episodes count most: in a conversation the answer to what a top
# utterance raises (or what its "this" / "it" refers to) is usually in the turn next to it, worded differently.
LIST_WEIGHTS = {
    "fulltext": 2.0,
    "episode_fulltext": 2.0,
    "prescription_fulltext": 2.0,
    "context": 3.0,
    "participant": 3.0,
    "content": 2.0,
}


def rrf(ranks: dict[str, int]) -> float:
    return sum(LIST_WEIGHTS.get(name, 1.0) / (RRF_K + rank) for name, rank in ranks.items())


def recency(when: datetime | None, oldest: datetime | None, newest: datetime | None) -> float:
    if when is None or oldest is None or newest is None or newest <= oldest:
        return 0.5
    return (when - oldest).total_seconds() / (newest - oldest).total_seconds()
