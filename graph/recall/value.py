"""The value function's parts: the fusion of the candidate lists, the vote strengths, focus and recency (the weights
are in graph/recall/config.py)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

# The lists that search prescriptions themselves (their words, their meaning, their intent's meaning).
PRESCRIPTION_LISTS = ("prescription_fulltext", "prescription_dense", "intent_dense")

# The full-text lists of knowledge, whose hits carry their share of the query's distinctive words (search.py).
LEXICAL_LISTS = frozenset({"fulltext", "episode_fulltext"})

# The lists ranked by a dense (vector) search over everything, whose hits carry a cosine score. Not "participant":
# what the named person said is evidence by who said it, however far its words are from the question's.
DENSE_LISTS = frozenset({"dense", "episode_dense", "prescription_dense", "intent_dense", "content"})


def prescription_ceiling(weights: Mapping[str, float], k: int) -> float:
    """The fused score of a prescription first in every list that searches prescriptions, each vote at full
    strength."""
    return sum(weights.get(name, 1.0) for name in PRESCRIPTION_LISTS) / (k + 1)


def rrf(
    ranks: dict[str, int], weights: Mapping[str, float], k: int, strengths: dict[str, float] | None = None
) -> float:
    """Weighted reciprocal-rank fusion (`weights`: list name -> weight, 1 where not named; `k`: the rank constant);
    each list's vote scaled by its strength for the item (1 where not given)."""
    strengths = strengths or {}
    return sum(weights.get(name, 1.0) * strengths.get(name, 1.0) / (k + rank) for name, rank in ranks.items())


def cosine(score: float | None) -> float:
    """The cosine (clipped at 0) from a vector score: Neo4j's indexes and `vector.similarity.cosine` give
    (1 + cosine) / 2, which squeezes unrelated (~0.5) and close (~0.9) text into half the range."""
    return max(0.0, 2.0 * float(score or 0.0) - 1.0)


def match_strength(score: float, floor: float, full: float) -> float:
    """How much a dense hit with vector `score` counts as evidence: 0 at a cosine of `floor` or below, 1 from `full`,
    linear between."""
    return min(1.0, max(0.0, (cosine(score) - floor) / (full - floor)))


def distinctive_strength(coverage: float, exponent: float, floor: float) -> float:
    """How much a full-text hit counts as evidence: `floor` plus the rest by its share of the query's distinctive
    words (`coverage`, in [0, 1]) to `exponent` (0: every hit counts fully)."""
    if not exponent:
        return 1.0
    return floor + (1.0 - floor) * float(max(coverage, 0.0) ** exponent)


def focus(statements: int, exponent: float, after: int) -> float:
    """How much an item drawn from an utterance that yielded `statements` pieces of knowledge counts:
    (statements / after)^-exponent beyond `after` statements, 1 up to it.

    A long utterance (an assistant's generic answer, a dense paragraph) yields many statements, and each is one more
    draw at matching the query: the best of thirty weak matches outranks the single statement of a short turn that
    answers it. One statement's evidence is discounted by how many it came with, as a passage's term weights are by its
    length."""
    return float((max(statements, after) / after) ** -exponent)


def recency(when: datetime | None, oldest: datetime | None, newest: datetime | None) -> float:
    if when is None or oldest is None or newest is None or newest <= oldest:
        return 0.5
    return (when - oldest).total_seconds() / (newest - oldest).total_seconds()
