"""Relevance: how likely a recalled item is to bear on the question, as a probability in [0, 1], and what part of
the question nothing in memory matches.

The ranking's scores are relative (the best item of any query, answerable or not, scores about the same), so they
cannot tell "nothing relevant" from "this". Relevance is a logistic calibration (graph/recall/config.py
`RelevanceModel`, fitted by bench/abstention.py on development questions) of features the engine already has:
- the item's own match: its cosine to the query, its score against the best item's, how much of the question's
  content words its text and its proving episodes hold, how many of the question's phrases they hold whole (an
  item about "tennis" holds a word of "table tennis", not the phrase), and how many of the phrases no concept key
  matches (what memory has no concept for is in the item's words all the same, or it is not);
- how well the first items together support the question (`support`: the most any of them holds of the phrases no
  key matches), so that an answerable question's lower items keep their place while an unsupported question's
  best one does not pass;
- the question's match with the space's schema: how many of the question's concepts (its key phrases,
  engram/extraction/keyphrases.py) are concept keys of the space. A question about "table tennis" in a memory where
  only tennis was said finds "tennis" but no "table tennis" key, however close the items about tennis sit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engram.extraction.keyphrases import STOPWORDS, extract_keyphrases, normalize_key
from graph.recall.bm25 import analyze

_NAME = re.compile(r"\b[A-Z][\w’'-]*[\w]")
FEATURES = (
    "similarity",
    "score_share",
    "term_coverage",
    "phrase_coverage",
    "missing_coverage",
    "concept_coverage",
    "support",
)
SUPPORT_ITEMS = 10  # the first items whose best match says how well memory supports the question


@dataclass(frozen=True)
class QueryCoverage:
    """The question's concepts (key phrases) and which of them the space's concept keys match.

    A phrase is matched when its key, or a key of two or more of its words in a row, is a concept key of the space
    ("play table tennis" by "table tennis"); its single words alone do not match it ("table" and "tennis" are not
    "table tennis"), they are what memory holds near it (`near`)."""

    phrases: list[str]  # as the question writes them, most specific first
    weights: dict[str, float]  # phrase -> its keyphrase score (longer phrases and names weigh more)
    matched: list[str]
    missing: list[str]
    near: dict[str, list[str]] = field(default_factory=dict)  # missing phrase -> its words that are keys
    unmentioned: list[str] = field(default_factory=list)  # names the question uses that nothing remembered mentions

    @property
    def share(self) -> float:
        """The weighted share of the question's concepts that are keys of the space (1 where it names none)."""
        total = sum(self.weights.values())
        if not total:
            return 1.0
        return sum(self.weights[p] for p in self.matched) / total

    def lookups(self) -> list[str]:
        return sorted({key for phrase in self.phrases for key in _spans(phrase)})


def _spans(phrase: str) -> list[str]:
    """The keys of the phrase and of every run of its words (single words included)."""
    words = phrase.split()
    keys = {normalize_key(" ".join(words[i:j])) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    return sorted(k for k in keys if k)


def question_concepts(query: str, limit: int) -> tuple[list[str], dict[str, float]]:
    """The question's key phrases and their scores; a capitalised word is a name, a concept of its own ("Rex" and
    "eat" in "What does Rex eat?", not "Rex eat")."""
    names = frozenset(w for w in _NAME.findall(query) if w.lower() not in STOPWORDS)
    phrases = extract_keyphrases(query, names=names, limit=limit)
    return [p.display for p in phrases], {p.display: p.score for p in phrases}


def query_coverage(
    phrases: Sequence[str], weights: Mapping[str, float], keys: Iterable[str], nearby: Iterable[str] = ()
) -> QueryCoverage:
    """Which of the question's `phrases` the space's concept `keys` (those found among the phrases' spans) match;
    what memory holds near a missing phrase: its words that are keys, and the `nearby` keys (the concepts closest to
    the question) sharing a word with it."""
    found = set(keys)
    close = sorted(set(nearby))
    matched: list[str] = []
    missing: list[str] = []
    near: dict[str, list[str]] = {}
    for phrase in phrases:
        words = phrase.split()
        runs = [normalize_key(" ".join(words[i:j])) for i in range(len(words)) for j in range(i + 2, len(words) + 1)]
        if normalize_key(phrase) in found or any(run in found for run in runs):
            matched.append(phrase)
            continue
        missing.append(phrase)
        own = {normalize_key(w) for w in words}
        held = [normalize_key(w) for w in words if normalize_key(w) in found]
        held += [k for k in close if k not in held and own & set(k.split()) and k != normalize_key(phrase)]
        if held:
            near[phrase] = held
    return QueryCoverage(list(phrases), dict(weights), matched, missing, near)


def content_terms(phrases: Sequence[str], weights: Mapping[str, float]) -> dict[str, float]:
    """The question's content words as the full-text index analyses them, each weighted by its phrase's score."""
    terms: dict[str, float] = {}
    for phrase in phrases:
        for term in analyze(phrase):
            terms[term] = max(terms.get(term, 0.0), weights.get(phrase, 1.0))
    return terms


class Analysed(dict[str, frozenset[str]]):
    """Texts' indexed terms, each text analysed once: the items of one recall share their proving episodes' texts
    (an utterance proves several statements), and analysing them again was most of the relevance step's time."""

    def terms(self, text: str) -> frozenset[str]:
        found = self.get(text)
        if found is None:
            found = self[text] = frozenset(analyze(text))
        return found


def held_terms(texts: Iterable[str], analysed: Analysed | None = None) -> set[str]:
    """The indexed terms the texts (an item and its proofs) hold; `analysed`: texts already analysed (it learns the
    new ones)."""
    known = Analysed() if analysed is None else analysed
    return set().union(*(known.terms(text) for text in texts))


def term_coverage(terms: Mapping[str, float], held: set[str]) -> float:
    """The weighted share of the question's content `terms` among the `held` terms."""
    total = sum(terms.values())
    if not total:
        return 1.0
    return sum(weight for term, weight in terms.items() if term in held) / total


def phrase_coverage(
    phrases: Sequence[str], weights: Mapping[str, float], held: set[str], analysed: Analysed | None = None
) -> float:
    """The weighted share of the question's phrases whose head is among the `held` terms: the last word and the one
    before it (English compounds end on their head: "table tennis", "new coffee creamer" is held by "coffee
    creamer")."""
    known = Analysed() if analysed is None else analysed
    whole = {phrase: known.terms(" ".join(phrase.split()[-2:])) for phrase in phrases}
    total = sum(weights.get(phrase, 1.0) for phrase, terms in whole.items() if terms)
    if not total:
        return 1.0
    return sum(weights.get(p, 1.0) for p, terms in whole.items() if terms and all(t in held for t in terms)) / total


def item_features(
    similarity: float,
    score: float,
    top_score: float,
    texts: Iterable[str],
    coverage: QueryCoverage,
    terms: Mapping[str, float],
    analysed: Analysed | None = None,
) -> dict[str, float]:
    """The features of one item (`FEATURES`, in order): `texts` are its text and its proofs', `terms` the question's
    content terms (`content_terms`); `analysed`: the texts already analysed, shared by the items of a recall."""
    known = Analysed() if analysed is None else analysed
    held = held_terms(texts, known)
    return {
        "similarity": similarity,
        "score_share": score / top_score if top_score > 0 else 0.0,
        "term_coverage": term_coverage(terms, held),
        "phrase_coverage": phrase_coverage(coverage.phrases, coverage.weights, held, known),
        "missing_coverage": phrase_coverage(coverage.missing, coverage.weights, held, known),
        "concept_coverage": coverage.share,
    }


def with_support(features: list[dict[str, float]]) -> list[dict[str, float]]:
    """Each item's features (ranking order) with `support`: the best `missing_coverage` of the first items."""
    support = max((f["missing_coverage"] for f in features[:SUPPORT_ITEMS]), default=0.0)
    return [f | {"support": support} for f in features]


def calibrated(features: Mapping[str, float], intercept: float, weights: Mapping[str, float]) -> float:
    """The logistic calibration: 1 / (1 + e^-(intercept + sum of weight x feature))."""
    z = intercept + sum(weights[name] * features[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def nothing_relevant(coverage: QueryCoverage, best: float | None, minimum: float) -> str:
    """Why a recall returns nothing: the names nothing in memory mentions, or the question's concepts nothing in
    memory matches and what is near them."""
    if coverage.unmentioned:
        return f"nothing relevant: nothing in memory mentions {', '.join(repr(n) for n in coverage.unmentioned)}"
    if best is None:
        return "nothing relevant: memory holds nothing that matches the question"
    said = f"nothing relevant: the best match's relevance {best:.2f} is below the minimum {minimum:.2f}"
    if not coverage.missing:
        return said
    parts = []
    for phrase in coverage.missing:
        near = coverage.near.get(phrase)
        held = f" (memory holds {', '.join(repr(w) for w in near)})" if near else ""
        parts.append(f"'{phrase}'{held}")
    return f"{said}; no concept in memory matches {', '.join(parts)}"
