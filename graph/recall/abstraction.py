"""Abstraction: which concept keys a query is about.

Offline: the query's keyphrases matched against the schema's keys (exact after normalisation), plus the
nearest concept embeddings. With a language model, the key-constrained decoder can name keys instead;
both sit behind `Abstractor`.
"""

from __future__ import annotations

from typing import Protocol

from engram.extraction.keyphrases import extract_keyphrases, normalize_key
from graph.recall.search import ConceptHit, GraphSearcher


class Abstractor(Protocol):
    def concepts(self, query: str, vector: list[float], searcher: GraphSearcher) -> list[ConceptHit]: ...


class OfflineAbstractor:
    def __init__(self, dense_k: int = 8, min_similarity: float = 0.55) -> None:
        self._dense_k = dense_k
        self._min_similarity = min_similarity

    def concepts(self, query: str, vector: list[float], searcher: GraphSearcher) -> list[ConceptHit]:
        phrases = extract_keyphrases(query, limit=8)
        keys = {normalize_key(p.display) for p in phrases}
        # Single words of multi-word phrases too: "support group meeting" should reach "support group".
        keys |= {normalize_key(word) for p in phrases for word in p.display.split()}
        lexical = searcher.concepts_by_key(sorted(k for k in keys if k))
        dense = searcher.dense_concepts(vector, self._dense_k, self._min_similarity)
        merged: dict[str, ConceptHit] = {c.id: c for c in dense}
        merged.update({c.id: c for c in lexical})  # an exact key match is full confidence
        return list(merged.values())
