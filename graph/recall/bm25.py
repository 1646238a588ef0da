"""Full-text scores from a space's own term statistics.

Neo4j's full-text indexes score with BM25 over the whole index: a term's weight (idf) counts every space's
documents, and deleted ones until Lucene merges its segments. A small space is searched inside the shared index
(`graph/recall/neo4j_searcher.py`), so its ranking moved when another tenant wrote, or when it was itself written again
(docs/tuning.md has the size of that drift), and one tenant could steer another's ranking by flooding a word. The
index still finds the matching documents; they are scored here again with the space's own counts: how many of its
documents hold each query term (asked of the index, scoped to the space) and how many documents it has.

Lucene's English analyzer is followed (lower case, possessive "'s" dropped, its stop words, Porter stems) so a
term counts where the index matched it. Lengths are in characters, a document's against the mean of the space's
(counted with its sizes), so no text but the hits' is read.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

K1 = 1.2  # Lucene's BM25Similarity defaults
B = 0.75

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.
LUCENE_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)*")
_POSSESSIVE = ("'s", "’s")  # stripped from a token's end (a suffix test: a regex per token cost most of `analyze`)
_LOCAL = threading.local()  # a stemmer keeps state while it stems: one per thread


def _stemmer() -> snowballstemmer.stemmer:
    stemmer = getattr(_LOCAL, "porter", None)
    if stemmer is None:
        stemmer = _LOCAL.porter = snowballstemmer.stemmer("porter")
    return stemmer


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


def analyze(text: str) -> list[str]:
    """The text's indexed terms, as Lucene's English analyzer makes them."""
    terms = []
    for token in _TOKEN.findall(text.lower()):
        if token.endswith(_POSSESSIVE):
            token = token[:-2]
        if token and token not in LUCENE_STOP_WORDS:
            terms.append(stem(token))
    return terms


@dataclass(frozen=True)
class TermStatistics:
    """A space's counts for a query's terms: its documents, and how many hold each term."""

    documents: int
    holding: Mapping[str, int]  # query term -> documents of the space that hold it
    mean_chars: float  # the mean length of its documents, in characters

    def idf(self, term: str) -> float:
        held = self.holding.get(term, 0)
        return math.log(1.0 + (self.documents - held + 0.5) / (held + 0.5))


def _term_weights(
    terms: Sequence[str], statistics: TermStatistics, keep: Callable[[str], bool] = lambda term: True
) -> dict[str, float]:
    """The idf of each query term that `keep` keeps, by its analysed form (terms analysed alike add up)."""
    weights: dict[str, float] = {}
    for term in terms:
        analyzed = analyze(term)
        if analyzed and keep(term):
            weights[analyzed[0]] = weights.get(analyzed[0], 0.0) + statistics.idf(term)
    return weights


@dataclass(frozen=True)
class AnalysedText:
    """A text as the index sees it: its length in characters and how often it holds each indexed term. Analysed once,
    it is scored (`bm25_scores`) and weighed for the query's distinctive words (`distinctive_coverage`) alike."""

    chars: int
    counts: Counter[str]

    @classmethod
    def of(cls, text: str) -> AnalysedText:
        return cls(len(text), Counter(analyze(text)))


def analysed(texts: Sequence[str]) -> list[AnalysedText]:
    return [AnalysedText.of(text) for text in texts]


def bm25_scores(texts: Sequence[AnalysedText], terms: Sequence[str], statistics: TermStatistics) -> list[float]:
    """Each text's BM25 score for the query `terms` (as `lucene_query` gives them) under the space's `statistics`."""
    weights = _term_weights(terms, statistics)
    scores = []
    for text in texts:
        counts = text.counts
        norm = K1 * (1.0 - B + B * text.chars / statistics.mean_chars) if statistics.mean_chars > 0 else K1
        scores.append(sum(weight * counts[s] / (counts[s] + norm) for s, weight in weights.items() if counts[s]))
    return scores


def distinctive_weights(terms: Sequence[str], statistics: TermStatistics, share: float) -> dict[str, float]:
    """The query's distinctive terms (analysed) and their idf: those at most `share` of the space's documents hold
    (and one does). In a space of a few documents no word is distinctive."""
    return _term_weights(
        terms, statistics, lambda term: 0 < statistics.holding.get(term, 0) <= share * statistics.documents
    )


def distinctive_coverage(texts: Sequence[AnalysedText], weights: Mapping[str, float]) -> list[float]:
    """How much of the query's distinctive terms (`distinctive_weights`) each text holds, by weight, against the text
    holding most (in [0, 1]; 1 for all where there are none, or no text holds one). A hit sharing only the query's
    common words then counts for less than the one holding its rare name, however close they sit by rank."""
    if not weights:
        return [1.0] * len(texts)
    held = [sum(weight for stem, weight in weights.items() if text.counts[stem]) for text in texts]
    best = max(held, default=0.0)
    return [weight / best if best > 0 else 1.0 for weight in held]
