"""Abstraction: which concept keys a query is about.

Offline: the query's keyphrases matched against the schema's keys (exact after normalisation), plus the
nearest concept embeddings. With a language model, the key-constrained decoder can name keys instead;
both sit behind `Abstractor`.
"""

from __future__ import annotations

import logging
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Protocol

import neo4j
import redis

from engram.concept_keys.prompts import query_keys_prompt
from engram.concept_keys.sync import KeyKind
from engram.extraction.keyphrases import extract_keyphrases, normalize_key
from engram.settings import KeySettings
from graph.concept_keys.tries import KeySchemas
from graph.recall.candidates import Candidate
from graph.recall.config import RecallConfig
from graph.recall.hits import ConceptHit
from graph.recall.models import ItemKind
from graph.recall.searcher import Searcher

if TYPE_CHECKING:
    from engram.concept_keys.decoder import KeyDecoder

log = logging.getLogger(__name__)


class Abstractor(Protocol):
    def concepts(self, query: str, vector: list[float], searcher: Searcher, searches: Executor) -> list[ConceptHit]: ...


class OfflineAbstractor:
    def __init__(self, config: RecallConfig | None = None) -> None:
        config = config or RecallConfig()
        self._phrases = config.abstraction.abstract_phrases
        self._dense_k = config.abstraction.abstract_dense_k
        self._min_similarity = config.abstraction.abstract_min_similarity

    def concepts(self, query: str, vector: list[float], searcher: Searcher, searches: Executor) -> list[ConceptHit]:
        phrases = extract_keyphrases(query, limit=self._phrases)
        keys = {normalize_key(p.display) for p in phrases}
        # Single words of multi-word phrases too: "support group meeting" should reach "support group".
        keys |= {normalize_key(word) for p in phrases for word in p.display.split()}
        # Two independent round trips: side by side (`searches` runs round trips only, so it cannot be waiting
        # on this step).
        by_key = searches.submit(searcher.concepts_by_key, sorted(k for k in keys if k))
        dense = searcher.dense_concepts(vector, self._dense_k, self._min_similarity)
        lexical = by_key.result()
        merged: dict[str, ConceptHit] = {c.id: c for c in dense}
        merged.update({c.id: c for c in lexical})  # an exact key match is full confidence
        return list(merged.values())


class ConstrainedAbstractor:
    """A language model names the query's concept keys, constrained to the space's schema (k distinct keys by
    beam search over the key trie); the offline abstractor's matches are added, so the model only adds reach."""

    def __init__(self, decoder: KeyDecoder, schemas: KeySchemas, k: int = 4, offline: Abstractor | None = None) -> None:
        self._decoder = decoder
        self._schemas = schemas
        self._k = k
        self._offline = offline or OfflineAbstractor()

    def named_keys(self, query: str, space: str) -> list[str]:
        trie = self._schemas.get(self._decoder.tokenizer, space, KeyKind.CONCEPT).trie()
        return [choice.key for choice in self._decoder.name_keys(query_keys_prompt(query), trie, self._k)]

    def concepts(self, query: str, vector: list[float], searcher: Searcher, searches: Executor) -> list[ConceptHit]:
        named = searcher.concepts_by_key(self.named_keys(query, searcher.space))
        offline = self._offline.concepts(query, vector, searcher, searches)
        merged: dict[str, ConceptHit] = {c.id: c for c in offline}
        merged.update({c.id: c for c in named})
        return list(merged.values())


def create_abstractor(
    settings: KeySettings, driver: neo4j.Driver, database: str, client: redis.Redis, config: RecallConfig | None = None
) -> Abstractor:
    """The constrained abstractor when `ENGRAM_KEYS_MODEL` names a local model, else the offline one."""
    offline = OfflineAbstractor(config)
    if not settings.model:
        return offline
    from engram.concept_keys.decoder import KeyDecoder
    from engram.concept_keys.runtime import load_key_model
    from engram.settings import get_settings

    model, description = load_key_model(settings, get_settings().state_dir)
    log.info("recall's keys named by %s: %s", settings.model, description)
    decoder = KeyDecoder(model, settings.max_new_key_tokens)
    schemas = KeySchemas(driver, database, client, settings.reconcile_s)
    return ConstrainedAbstractor(decoder, schemas, settings.beams, offline)


def concepts_to_expand(
    tuning: RecallConfig, activation: dict[str, float], df: dict[str, int], budget: int | None = None
) -> dict[str, float]:
    """The most activated concepts that are specific enough to expand, within the expansion's mention budget
    (`tuning.expand_mentions` unless given; a concept that would overrun it is passed over for rarer ones)."""
    budget = tuning.abstraction.expand_mentions if budget is None else budget
    chosen: dict[str, float] = {}
    mentions = 0
    for concept_id, value in sorted(activation.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(chosen) == tuning.abstraction.expand_concepts:
            break
        concept_df = df.get(concept_id, 0)
        if concept_df > tuning.abstraction.max_expand_df or mentions + concept_df > budget:
            continue
        chosen[concept_id] = value
        mentions += concept_df
    return chosen


def merge_expansion(rows: list[dict[str, Any]], candidates: dict[str, Candidate], source: str) -> None:
    """The mentions an expansion read, ranked by activation x closeness to the query, join as list `source`."""
    ordered = sorted(rows, key=lambda r: (-(float(r["activation"]) * float(r["similarity"])), r["id"]))
    for rank, row in enumerate(ordered, start=1):
        candidate = candidates.setdefault(row["id"], Candidate(row["id"], ItemKind.PROPOSITION))
        candidate.add(source, rank)
        candidate.activation = max(candidate.activation, float(row["activation"]))
        if row["similarity"] is not None:
            candidate.similarity = float(row["similarity"])
