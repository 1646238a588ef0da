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
    similarity: float = 0.15  # exact cosine between the query and the item (clipped at 0)
    activation: float = 0.10  # spread from the query's concepts over associations
    confidence: float = 0.04
    importance: float = 0.03
    recency: float = 0.03
    # Not weights: the focus factor that scales the whole score (`focus` below), its exponent and the statements an
    # utterance yields before it applies. LongMemEval_S dev (36 questions, tune half chose it): turn R@5 56.9 -> 66.2,
    # R@10 78.7 -> 79.4; LoCoMo dev unchanged (R@10 all-no-adv 75.1 -> 75.3, multi-hop 50.1 -> 50.2, adversarial
    # 72.4 -> 71.7). Without the threshold (every statement discounted) LoCoMo lost 3.2 multi-hop and 3.8 adversarial:
    # a conversation turn yields 1-5 statements, an assistant's generic answer 7-29.
    focus: float = 0.15
    focus_after: int = 5


RRF_K = 20
# Lexical evidence counts double: rare words (names of events, places, objects) are what pins a memory
# down, and dense similarity alone drifts to the topic (it also rewards a question's false premise).
# The neighbouring turns of the top items' episodes count most: in a conversation the answer to what a top
# utterance raises (or what its "this" / "it" refers to) is usually in the turn next to it, worded differently.
# A prescription's text begins with its intent: its dense search and its intent's see one meaning twice, so each
# counts half and together they weigh as one dense list against the prescription's words (a dense match between
# tasks follows the objects they share, "put a mug in shelf" / "put a cool mug in shelf").
LIST_WEIGHTS = {
    "fulltext": 2.0,
    "episode_fulltext": 2.0,
    "prescription_fulltext": 2.0,
    "prescription_dense": 0.5,
    "intent_dense": 0.5,
    "context": 3.0,
    "participant": 3.0,
    "content": 2.0,
    # A page is what a top item names: strong evidence for the next hop, though its words may share nothing with
    # the question's.
    "page": 5.0,
    # A page the query names: its passages are already near the question in words or meaning, and the other lists
    # find them too (HotpotQA / MuSiQue tune halves: weight 2 over 1, 3 and 5).
    "named_page": 2.0,
    # What happened at the time the query names ("two weeks ago"), found by when it happened.
    "when": 3.0,
}


# The lists that search prescriptions themselves (their words, their meaning, their intent's meaning).
PRESCRIPTION_LISTS = ("prescription_fulltext", "prescription_dense", "intent_dense")

# The full-text lists of knowledge, whose hits carry their share of the query's distinctive words (search.py).
LEXICAL_LISTS = frozenset({"fulltext", "episode_fulltext"})

# The lists ranked by a dense (vector) search over everything, whose hits carry a cosine score. Not "participant":
# what the named person said is evidence by who said it, however far its words are from the question's.
DENSE_LISTS = frozenset({"dense", "episode_dense", "prescription_dense", "intent_dense", "content"})


# The fused score of a prescription first in every list that searches prescriptions, each vote at full strength.
PRESCRIPTION_CEILING = sum(LIST_WEIGHTS.get(name, 1.0) for name in PRESCRIPTION_LISTS) / (RRF_K + 1)


def rrf(ranks: dict[str, int], strengths: dict[str, float] | None = None) -> float:
    """Weighted reciprocal-rank fusion; each list's vote scaled by its strength for the item (1 where not given)."""
    strengths = strengths or {}
    return sum(LIST_WEIGHTS.get(name, 1.0) * strengths.get(name, 1.0) / (RRF_K + rank) for name, rank in ranks.items())


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
