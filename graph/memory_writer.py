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

from engram.embedder_identity import EmbedderIdentity, identity_of
from engram.ids import stable_id
from engram.models import Concept, Episode, Intent, Prescription, Proposition, Source, SourceKind
from engram.scope import metadata_properties
from graph.cypher import load
from graph.dimension_names import rename_dimensions
from graph.params import vector_param
from graph.space_indexes import label_written

SOURCES_PER_TRANSACTION = 40
ProgressFn = Callable[[int, int], None]
# Sources whose record is written whole each time: episodes past its new length are stale (a conversation's session
# may come turn by turn, so its missing turns are not).
WHOLE_RECORD_KINDS = (SourceKind.DOCUMENT.value, SourceKind.TRAJECTORY.value)


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
    for row in rows:
        if "metadata" in row:  # Neo4j holds no maps: one property per key
            row["metadata"] = metadata_properties(row["metadata"])
    if vectors is not None:
        for row, vector in zip(rows, vectors, strict=True):
            row["embedding"] = vector_param(vector)
    return rows


@dataclass
class Written:
    concept_ids: set[str]  # concepts the written knowledge mentions
    # Concepts of knowledge retired because an episode's text changed or a record got shorter: their counts and every
    # association edge must be recounted, as after a forget.
    retired_concept_ids: set[str]
    # Texts of the intents retired because a re-ingested trajectory's task changed (every intent trie drops them).
    retired_intents: set[str]


def _chunks(items: Sequence[Source], size: int) -> Iterator[Sequence[Source]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class MemoryWriter:
    def __init__(self, driver: neo4j.Driver, database: str, embedder: EmbedderIdentity | None = None) -> None:
        """`embedder`: who computed the batches' vectors (recorded on the space; a space recording another family
        refuses the write); default: the one this process's settings build."""
        self._driver = driver
        self._database = database
        self._embedder = embedder

    @property
    def embedder(self) -> EmbedderIdentity:
        if self._embedder is None:
            from engram.settings import get_settings

            self._embedder = identity_of(get_settings().embedding)
        return self._embedder

    def write(self, batch: MemoryBatch, progress: ProgressFn | None = None) -> Written:
        """Write the batch; returns the ids of the concepts to refresh (for consolidation)."""
        self.write_schema(batch)
        return self.write_sources(batch, progress)

    def write_schema(self, batch: MemoryBatch) -> None:
        """The batch's new concepts and intents, in their own transaction: every source chunk links to them, so a
        later batch written concurrently (workers/bulk_import.py) must not start its chunks before this is done."""
        with self._driver.session(database=self._database) as session:
            session.execute_write(self._write_schema, batch)

    def write_sources(self, batch: MemoryBatch, progress: ProgressFn | None = None) -> Written:
        """Sources with their episodes and the knowledge they prove, SOURCES_PER_TRANSACTION per transaction;
        returns the ids of the concepts mentioned and of those whose knowledge was retired."""
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

        written = Written(set(), set(), set())
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
            written.concept_ids.update(m["concept_id"] for m in mentions)
            with self._driver.session(database=self._database) as session:
                retired_concepts, retired_intents = session.execute_write(
                    self._write_chunk, batch.space, _rows(chunk), episodes, propositions, mentions, prescriptions,
                    self.embedder.properties(),
                )  # fmt: skip
            written.retired_concept_ids.update(retired_concepts)
            written.retired_intents.update(retired_intents)
            done += len(chunk)
            if progress:
                progress(done, len(batch.sources))
        return written

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
        embedder: dict[str, Any],
    ) -> tuple[list[str], list[str]]:
        """Writes one chunk; returns the concepts of the knowledge it retired and the texts of the intents."""
        tx.run(load("ingest/record_embedder"), space=space, embedder=embedder)
        tx.run(load("ingest/merge_sources"), space=space, sources=sources)
        texts = [{"id": e["id"], "text": e["text"]} for e in episodes]
        unlinked = tx.run(load("ingest/unlink_changed_episodes"), space=space, episodes=texts).single(strict=True)[0]
        tx.run(load("ingest/merge_episodes"), space=space, episodes=episodes)
        ordered = sorted(episodes, key=lambda e: (e["source_id"], e["seq"]))
        pairs = [{"prev": a["id"], "next": b["id"]} for a, b in pairwise(ordered) if a["source_id"] == b["source_id"]]
        tx.run(load("ingest/link_episode_sequence"), space=space, pairs=pairs)
        tx.run(load("ingest/merge_propositions"), space=space, propositions=propositions)
        tx.run(load("ingest/link_mentions"), space=space, mentions=mentions)
        left = tx.run(load("ingest/merge_prescriptions"), space=space, prescriptions=prescriptions).single(strict=True)
        trajectories = [s["id"] for s in sources if s["kind"] == SourceKind.TRAJECTORY.value]
        replaced = tx.run(
            load("ingest/retire_replaced_prescriptions"),
            space=space,
            sources=trajectories,
            keep=[p["id"] for p in prescriptions],
        ).single(strict=True)
        label_written(tx, space, propositions=[p["id"] for p in propositions], episodes=[e["id"] for e in episodes])
        concept_ids = _retire(tx, space, _record_lengths(sources, episodes), unlinked)
        left_intents = sorted({*left["left_intents"], *replaced["left_intents"]})
        intents = tx.run(load("ingest/retire_unsolved_intents"), space=space, intent_ids=left_intents)
        return concept_ids, intents.single(strict=True)["texts"]


def _record_lengths(sources: list[dict[str, Any]], episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The number of episodes each whole-record source of a chunk now has (its passages or steps)."""
    lengths = {s["id"]: 0 for s in sources if s["kind"] in WHOLE_RECORD_KINDS}
    for episode in episodes:
        if episode["source_id"] in lengths:
            lengths[episode["source_id"]] = max(lengths[episode["source_id"]], episode["seq"] + 1)
    return [{"id": source_id, "episodes": n} for source_id, n in lengths.items()]


def _retire(tx: neo4j.ManagedTransaction, space: str, lengths: list[dict[str, Any]], unlinked: list[str]) -> list[str]:
    """After a chunk's merges, in its transaction: the knowledge its changed episodes no longer prove and no other
    episode does, and the stale episodes of its shortened records, go as a forget takes them. Returns the concepts
    they mentioned."""
    stale = tx.run(load("ingest/stale_episodes"), space=space, sources=lengths).single(strict=True)[0]
    concept_ids: list[str] = []
    if stale:
        row = tx.run(load("forget/forget_episodes"), space=space, episode_ids=stale).single(strict=True)
        concept_ids += row["concept_ids"] or []
    unproven = tx.run(load("ingest/unproven_knowledge"), space=space, ids=unlinked).single(strict=True)[0]
    if unproven:
        row = tx.run(load("forget/forget_knowledge"), space=space, ids=unproven, restore_replaced=True).single(
            strict=True
        )
        concept_ids += row["concept_ids"] or []
    return concept_ids


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
        if orphans["removed"]:  # no dimension may keep naming a deleted concept
            session.execute_write(lambda tx: rename_dimensions(tx, space))
        if proposition_ids is None:
            query, params = "consolidate/refresh_associations", {"concept_ids": ids}
        else:
            query, params = "consolidate/refresh_proposition_pairs", {"proposition_ids": sorted(set(proposition_ids))}
        edges = session.execute_write(lambda tx: tx.run(load(query), {"space": space, **params}).single(strict=True)[0])
    return {"concepts_removed": int(orphans["removed"]), "association_edges": int(edges),
            "removed_keys": list(orphans["keys"])}  # fmt: skip
