"""Writes a pipeline batch into Neo4j: batched UNWIND ... MERGE statements on the constrained keys.

Each chunk of sources (with everything proven by their episodes) is one transaction, so a source is never
half-written; the driver retries transient failures and every statement is idempotent under redelivery.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypedDict

import neo4j
import numpy as np
from numpy.typing import NDArray

from engram.ids import stable_id
from engram.models import Concept, Episode, Intent, Prescription, Proposition, Source
from graph.cypher import load
from graph.params import vector_param
from graph.space_indexes import label_written

SOURCES_PER_TRANSACTION = 40
ProgressFn = Callable[[int, int], None]


@dataclass
class MemoryBatch:
    space: str
    sources: list[Source]
    episodes: list[Episode]
    episode_vectors: NDArray[np.float32]
    concepts: list[Concept]
    concept_vectors: NDArray[np.float32]
    propositions: list[Proposition]
    proposition_vectors: NDArray[np.float32]
    intents: list[Intent]
    intent_vectors: NDArray[np.float32]
    prescriptions: list[Prescription]
    prescription_vectors: NDArray[np.float32]


def _rows(models: Sequence[Any], vectors: NDArray[np.float32] | None = None) -> list[dict[str, Any]]:
    rows = [m.model_dump(mode="python") for m in models]
    if vectors is not None:
        for row, vector in zip(rows, vectors, strict=True):
            row["embedding"] = vector_param(vector)
    return rows


def _chunks(items: Sequence[Source], size: int) -> Iterator[Sequence[Source]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class MemoryWriter:
    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    def write(self, batch: MemoryBatch, progress: ProgressFn | None = None) -> set[str]:
        """Write the batch; returns the ids of the concepts it mentions (for consolidation)."""
        self.write_schema(batch)
        return self.write_sources(batch, progress)

    def write_schema(self, batch: MemoryBatch) -> None:
        """The batch's new concepts and intents, in their own transaction: every source chunk links to them, so a
        later batch written concurrently (workers/bulk_import.py) must not start its chunks before this is done."""
        with self._driver.session(database=self._database) as session:
            session.execute_write(self._write_schema, batch)

    def write_sources(self, batch: MemoryBatch, progress: ProgressFn | None = None) -> set[str]:
        """Sources with their episodes and the knowledge they prove, SOURCES_PER_TRANSACTION per transaction;
        returns the ids of the concepts mentioned."""
        episode_rows = _rows(batch.episodes, batch.episode_vectors)
        proposition_rows = _rows(batch.propositions, batch.proposition_vectors)
        prescription_rows = _rows(batch.prescriptions, batch.prescription_vectors)
        by_source: dict[str, list[dict[str, Any]]] = {}
        for row in episode_rows:
            by_source.setdefault(row["source_id"], []).append(row)
        source_order = {s.id: index for index, s in enumerate(batch.sources)}
        episode_source = {row["id"]: row["source_id"] for row in episode_rows}

        def last_source(row: dict[str, Any]) -> str:
            # Knowledge proven by episodes of several sources is written with the last of them, when
            # every episode it links to already exists.
            return str(max((episode_source[e] for e in row["episode_ids"]), key=source_order.__getitem__))

        props_by_source: dict[str, list[dict[str, Any]]] = {}
        for row in proposition_rows:
            props_by_source.setdefault(last_source(row), []).append(row)
        pres_by_source: dict[str, list[dict[str, Any]]] = {}
        for row in prescription_rows:
            pres_by_source.setdefault(last_source(row), []).append(row)

        concept_ids: set[str] = set()
        done = 0
        for chunk in _chunks(batch.sources, SOURCES_PER_TRANSACTION):
            ids = [s.id for s in chunk]
            episodes = [row for sid in ids for row in by_source.get(sid, [])]
            propositions = [row for sid in ids for row in props_by_source.get(sid, [])]
            prescriptions = [row for sid in ids for row in pres_by_source.get(sid, [])]
            mentions = [
                {"proposition_id": row["id"], "concept_id": stable_id("con", batch.space, key)}
                for row in propositions
                for key in row["concept_keys"]
            ]
            concept_ids.update(m["concept_id"] for m in mentions)
            with self._driver.session(database=self._database) as session:
                session.execute_write(
                    self._write_chunk, batch.space, _rows(chunk), episodes, propositions, mentions, prescriptions
                )
            done += len(chunk)
            if progress:
                progress(done, len(batch.sources))
        return concept_ids

    @staticmethod
    def _write_schema(tx: neo4j.ManagedTransaction, batch: MemoryBatch) -> None:
        concepts = _rows(batch.concepts, batch.concept_vectors)
        tx.run(load("ingest/merge_concepts"), space=batch.space, concepts=concepts)
        label_written(tx, batch.space, concepts=[c["id"] for c in concepts])
        tx.run(load("ingest/merge_intents"), space=batch.space, intents=_rows(batch.intents, batch.intent_vectors))

    @staticmethod
    def _write_chunk(
        tx: neo4j.ManagedTransaction,
        space: str,
        sources: list[dict[str, Any]],
        episodes: list[dict[str, Any]],
        propositions: list[dict[str, Any]],
        mentions: list[dict[str, Any]],
        prescriptions: list[dict[str, Any]],
    ) -> None:
        tx.run(load("ingest/merge_sources"), space=space, sources=sources)
        tx.run(load("ingest/merge_episodes"), space=space, episodes=episodes)
        ordered = sorted(episodes, key=lambda e: (e["source_id"], e["seq"]))
        pairs = [{"prev": a["id"], "next": b["id"]} for a, b in pairwise(ordered) if a["source_id"] == b["source_id"]]
        tx.run(load("ingest/link_episode_sequence"), space=space, pairs=pairs)
        tx.run(load("ingest/merge_propositions"), space=space, propositions=propositions)
        tx.run(load("ingest/link_mentions"), space=space, mentions=mentions)
        tx.run(load("ingest/merge_prescriptions"), space=space, prescriptions=prescriptions)
        label_written(tx, space, propositions=[p["id"] for p in propositions], episodes=[e["id"] for e in episodes])


class ConceptRefresh(TypedDict):
    concepts_removed: int
    association_edges: int
    removed_keys: list[str]  # keys of the orphan concepts deleted (every process's key trie must drop them)


def refresh_concepts(
    driver: neo4j.Driver,
    database: str,
    space: str,
    concept_ids: Sequence[str],
    proposition_ids: Sequence[str] | None = None,
) -> ConceptRefresh:
    """Light consolidation: df/idf of the given concepts and orphan removal; then the association counts, either
    of the concept pairs the given propositions mention (all an ingest can change) or, without them, of every
    edge of the given concepts (after a forget or a supersession)."""
    ids = sorted(set(concept_ids))
    with driver.session(database=database) as session:
        orphans = session.execute_write(
            lambda tx: tx.run(load("consolidate/refresh_concept_stats"), space=space, concept_ids=ids).single(
                strict=True
            )
        )
        if proposition_ids is None:
            query, params = "consolidate/refresh_associations", {"concept_ids": ids}
        else:
            query, params = "consolidate/refresh_proposition_pairs", {"proposition_ids": sorted(set(proposition_ids))}
        edges = session.execute_write(lambda tx: tx.run(load(query), {"space": space, **params}).single(strict=True)[0])
    return {"concepts_removed": int(orphans["removed"]), "association_edges": int(edges),
            "removed_keys": list(orphans["keys"])}  # fmt: skip
