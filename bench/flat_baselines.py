"""Flat retrieval over raw turns, the baselines Engram must beat: BM25 with stemming, dense MiniLM, and
their reciprocal-rank fusion."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

import numpy as np
import snowballstemmer
from numpy.typing import NDArray
from rank_bm25 import BM25Okapi

from graph.recall.bm25 import LUCENE_STOP_WORDS

_STEMMER = snowballstemmer.stemmer("english")
# Lucene's English stop words, and the pronouns, question words and auxiliaries of a chat.
_ENGLISH_STOP = LUCENE_STOP_WORDS | frozenset(
    [
        "i",
        "you",
        "he",
        "she",
        "we",
        "me",
        "my",
        "your",
        "his",
        "her",
        "our",
        "them",
        "what",
        "when",
        "where",
        "who",
        "how",
        "which",
        "did",
        "do",
        "does",
        "have",
        "has",
        "had",
    ]
)


def analyse(text: str) -> list[str]:
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _ENGLISH_STOP]
    return _STEMMER.stemWords(words)  # type: ignore[no-any-return]


class FlatIndex:
    def __init__(self, ids: Sequence[str], texts: Sequence[str], vectors: NDArray[np.float32]) -> None:
        self.ids = list(ids)
        self._bm25 = BM25Okapi([analyse(t) for t in texts], k1=1.5, b=0.75)
        self._vectors = vectors

    def bm25(self, query: str) -> list[str]:
        scores = self._bm25.get_scores(analyse(query))
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")]

    def dense(self, query_vector: NDArray[np.float32]) -> list[str]:
        scores = self._vectors @ query_vector
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")]

    def hybrid(self, query: str, query_vector: NDArray[np.float32], k: int = 60) -> list[str]:
        return _fuse((self.bm25(query), self.dense(query_vector)), k)

    def hybrid_preferring(
        self, query: str, query_vector: NDArray[np.float32], preferred: Collection[str], k: int = 60
    ) -> list[str]:
        """The hybrid fused with a third list: the dense ranking of the `preferred` units alone (e.g. the turns of the
        speaker a question means by "I"). With none preferred, the hybrid."""
        dense = self.dense(query_vector)
        return _fuse((self.bm25(query), dense, [unit for unit in dense if unit in preferred]), k)


def _fuse(rankings: Iterable[list[str]], k: int) -> list[str]:
    """Reciprocal-rank fusion, ties in first-seen order."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, unit in enumerate(ranking, start=1):
            fused[unit] = fused.get(unit, 0.0) + 1 / (k + rank)
    return sorted(fused, key=lambda t: -fused[t])
