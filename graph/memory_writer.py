"""Writes a pipeline batch into Neo4j: batched UNWIND ... MERGE statements on the constrained keys.

Each chunk of sources (with everything proven by their episodes) is one transaction, or, when it holds more than
ROWS_PER_TRANSACTION episodes and propositions (a large document), a few transactions in the order of its episodes
(`plan_parts`): knowledge goes in with the last episode that proves it, and what a changed record no longer proves is
retired by the chunk's last part. The driver retries transient failures and every statement is idempotent under
redelivery, so a stage stopped between two parts and run again ends with the same graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any, TypedDict

import neo4j
import numpy as np
from numpy.typing import NDArray

from engram.embedder_identity import EmbedderIdentity, identity_of
from engram.extraction.base import EXTRACTION_VERSION
from engram.ids import stable_id
from engram.models import Concept, Episode, Intent, Prescription, Proposition, Source, SourceKind
from engram.scope import metadata_properties
from graph.cypher import load
from graph.deletion_fence import Withheld, fence
from graph.dimension_names import rename_dimensions
from graph.params import vector_param
from graph.space_indexes import label_written

SOURCES_PER_TRANSACTION = 40
# Episodes and propositions in one write transaction at most, unless one episode alone proves more (a chunk's episodes
# are cut between episodes). Short transactions keep other tenants' small writes from waiting behind a large
# document's: at 250 rows a small job's write took 1-2.5 s beside a flood's writes (0.07 s alone), docs/fairness.md.
ROWS_PER_TRANSACTION = 64
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
    # Episodes not written because a deletion begun after the work named them (graph/deletion_fence.py).
    withheld_episodes: set[str] = field(default_factory=set)


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
        """Write the batch; returns the ids of the concepts to refresh (for consolidation). Deletions begun from now
        on win over it (graph/deletion_fence.py)."""
        since = datetime.now(UTC)
        self.write_schema(batch, since)
        return self.write_sources(batch, progress, since)

    def write_schema(self, batch: MemoryBatch, since: datetime) -> None:
        """The batch's new concepts and intents, in their own transaction: every source chunk links to them, so a
        later batch written concurrently (workers/bulk_import.py) must not start its chunks before this is done.
        `since`: when the work began (a deletion of its space begun later stops it: ScopeDeleted)."""
        with self._driver.session(database=self._database) as session:
            session.execute_write(self._write_schema, batch, self.embedder.properties(), since)

    def write_sources(self, batch: MemoryBatch, progress: ProgressFn | None, since: datetime) -> Written:
        """Sources with their episodes and the knowledge they prove, part by part (`plan_parts`); returns the ids of
        the concepts mentioned and of those whose knowledge was retired."""
        parts = plan_parts(batch)
        written, unlinked = Written(set(), set(), set()), list[str]()
        for number, part in enumerate(parts):
            unlinked = self.write_part(batch.space, part, unlinked, written, since)
            if progress:
                progress(number + 1, len(parts))
        return written

    def write_part(
        self, space: str, part: WritePart, unlinked: list[str], written: Written, since: datetime
    ) -> list[str]:
        """Writes one part in one transaction and adds what it wrote to `written`. `unlinked`: the knowledge the
        earlier parts of its chunk unlinked from changed episodes; returns the same after this part (empty after a
        chunk's last part, which retires what is left unproven). `since`: when the work began: a deletion begun
        later stops the write (ScopeDeleted) or withholds the episodes it names (`Written.withheld_episodes`)."""
        with self._driver.session(database=self._database) as session:
            retired_concepts, retired_intents, unlinked, kept = session.execute_write(
                self._write_chunk, space, part, unlinked, self.embedder.properties(), since
            )
        written.concept_ids.update(m["concept_id"] for m in kept.mentions)
        written.retired_concept_ids.update(retired_concepts)
        written.retired_intents.update(retired_intents)
        written.withheld_episodes.update({e["id"] for e in part.episodes} - {e["id"] for e in kept.episodes})
        return unlinked

    @staticmethod
    def _write_schema(
        tx: neo4j.ManagedTransaction, batch: MemoryBatch, embedder: dict[str, Any], since: datetime
    ) -> None:
        fence(tx, batch.space, since)  # a whole-scope deletion stops it; the concepts of withheld episodes are
        # orphans once their parts are written, and go with the consolidation's refresh
        tx.run(load("ingest/record_embedder"), space=batch.space, embedder=embedder)  # refuses another family
        concepts = _rows(batch.concepts, batch.concept_vectors)
        tx.run(load("ingest/merge_concepts"), space=batch.space, concepts=concepts)
        label_written(tx, batch.space, concepts=[c["id"] for c in concepts])
        tx.run(load("ingest/merge_intents"), space=batch.space, intents=_rows(batch.intents, batch.intent_vectors))

    @staticmethod
    def _write_chunk(
        tx: neo4j.ManagedTransaction,
        space: str,
        part: WritePart,
        unlinked_before: list[str],
        embedder: dict[str, Any],
        since: datetime,
    ) -> tuple[list[str], list[str], list[str], WritePart]:
        """Writes one part; returns the concepts of the knowledge it retired, the texts of the intents, the
        knowledge its chunk has unlinked so far (retired by the chunk's last part), and the part as written (less
        what deletions withheld)."""
        part = part.without(fence(tx, space, since))
        episodes, propositions, prescriptions = part.episodes, part.propositions, part.prescriptions
        tx.run(load("ingest/record_embedder"), space=space, embedder=embedder)
        tx.run(load("ingest/merge_sources"), space=space, sources=part.sources)
        texts = [{"id": e["id"], "text": e["text"]} for e in episodes]
        unlinked = tx.run(
            load("ingest/unlink_changed_episodes"), space=space, episodes=texts, extraction=EXTRACTION_VERSION
        ).single(strict=True)[0]
        unlinked = [*unlinked_before, *unlinked]
        tx.run(load("ingest/merge_episodes"), space=space, episodes=episodes, extraction=EXTRACTION_VERSION)
        tx.run(load("ingest/link_episode_sequence"), space=space, pairs=part.sequence)
        tx.run(load("ingest/merge_propositions"), space=space, propositions=propositions)
        tx.run(load("ingest/link_mentions"), space=space, mentions=part.mentions)
        left = tx.run(load("ingest/merge_prescriptions"), space=space, prescriptions=prescriptions).single(strict=True)
        trajectories = [s["id"] for s in part.sources if s["kind"] == SourceKind.TRAJECTORY.value]
        replaced = tx.run(
            load("ingest/retire_replaced_prescriptions"),
            space=space,
            sources=trajectories,
            keep=[p["id"] for p in prescriptions],
        ).single(strict=True)
        label_written(tx, space, propositions=[p["id"] for p in propositions], episodes=[e["id"] for e in episodes])
        if part.lengths is None:  # not the chunk's last part: what is unproven is known once the chunk is whole
            concept_ids: list[str] = []
        else:
            concept_ids, unlinked = _retire(tx, space, part.lengths, unlinked), []
        left_intents = sorted({*left["left_intents"], *replaced["left_intents"]})
        intents = tx.run(load("ingest/retire_unsolved_intents"), space=space, intent_ids=left_intents)
        return concept_ids, intents.single(strict=True)["texts"], unlinked, part


@dataclass
class WritePart:
    """What one write transaction holds: a chunk of sources, or a slice of a large chunk's episodes."""

    sources: list[dict[str, Any]]  # the chunk's sources (merged again by each of its parts: idempotent)
    episodes: list[dict[str, Any]]
    propositions: list[dict[str, Any]]  # those whose last episode is in this part: all their episodes exist
    mentions: list[dict[str, Any]]
    prescriptions: list[dict[str, Any]]
    sequence: list[dict[str, str]]  # (prev, next) episode pairs whose later episode is in this part
    # The chunk's whole-record sources and their lengths, on its last part only: stale episodes and the knowledge
    # left unproven are retired once every part of the chunk is written.
    lengths: list[dict[str, Any]] | None

    def without(self, withheld: Withheld) -> WritePart:
        """The part less what deletions name: their sources and episodes, the knowledge any withheld episode proves
        (a deletion wins over what it would cascade to), and the links of all these."""
        if not withheld:
            return self
        sources = [s for s in self.sources if not withheld.names_source(s)]
        external = {s["id"]: s["external_id"] for s in sources}
        episodes = [
            e
            for e in self.episodes
            if e["source_id"] in external and not withheld.names_episode(e, external[e["source_id"]])
        ]
        source_ids = set(external)
        dropped = {e["id"] for e in self.episodes} - {e["id"] for e in episodes}
        propositions = [p for p in self.propositions if dropped.isdisjoint(p["episode_ids"])]
        kept = {p["id"] for p in propositions}
        return replace(
            self,
            sources=sources,
            episodes=episodes,
            propositions=propositions,
            mentions=[m for m in self.mentions if m["proposition_id"] in kept],
            prescriptions=[p for p in self.prescriptions if dropped.isdisjoint(p["episode_ids"])],
            sequence=[s for s in self.sequence if s["prev"] not in dropped and s["next"] not in dropped],
            lengths=None if self.lengths is None else [s for s in self.lengths if s["id"] in source_ids],
        )


def plan_parts(batch: MemoryBatch) -> list[WritePart]:
    """The batch's write transactions, in order: SOURCES_PER_TRANSACTION sources at a time, and a chunk holding more
    than ROWS_PER_TRANSACTION episodes and propositions (a large document) in slices of its episodes, so that each
    transaction is short (a worker's time slice can end between two; workers/tasks/ingest.py). A chunk with a
    trajectory stays whole: its prescriptions replace the trajectory's earlier ones in one transaction. The same
    batch always gives the same parts."""
    episode_rows = _rows(batch.episodes, batch.episode_vectors)
    proposition_rows = _rows(batch.propositions, batch.proposition_vectors)
    prescription_rows = _rows(batch.prescriptions, batch.prescription_vectors)
    source_order = {s.id: index for index, s in enumerate(batch.sources)}
    episode_rows.sort(key=lambda e: (source_order[e["source_id"]], e["seq"]))
    position = {row["id"]: index for index, row in enumerate(episode_rows)}

    def last_episode(row: dict[str, Any]) -> int:
        # Knowledge proven by several episodes is written with the last of them, when every one it links to exists.
        return max(position[e] for e in row["episode_ids"])

    propositions_at: dict[int, list[dict[str, Any]]] = {}
    for row in proposition_rows:
        propositions_at.setdefault(last_episode(row), []).append(row)
    prescriptions_at: dict[int, list[dict[str, Any]]] = {}
    for row in prescription_rows:
        prescriptions_at.setdefault(last_episode(row), []).append(row)

    parts: list[WritePart] = []
    first = 0
    for chunk in _chunks(batch.sources, SOURCES_PER_TRANSACTION):
        sources = _rows(chunk)
        end = first
        while end < len(episode_rows) and source_order[episode_rows[end]["source_id"]] < source_order[chunk[-1].id] + 1:
            end += 1
        whole = any(s["kind"] == SourceKind.TRAJECTORY.value for s in sources)
        cuts = [first]
        rows = 0
        for index in range(first, end):
            rows += 1 + len(propositions_at.get(index, []))
            if not whole and rows >= ROWS_PER_TRANSACTION and index + 1 < end:
                cuts.append(index + 1)
                rows = 0
        cuts.append(end)
        for low, high in pairwise(cuts):
            episodes = episode_rows[low:high]
            propositions = [row for index in range(low, high) for row in propositions_at.get(index, [])]
            previous = episode_rows[low - 1] if low > first else None
            ordered = [previous, *episodes] if previous is not None else episodes
            parts.append(
                WritePart(
                    sources=sources,
                    episodes=episodes,
                    propositions=propositions,
                    mentions=[
                        {"proposition_id": row["id"], "concept_id": stable_id("con", batch.space, key)}
                        for row in propositions
                        for key in row["concept_keys"]
                    ],
                    prescriptions=[row for index in range(low, high) for row in prescriptions_at.get(index, [])],
                    sequence=[
                        {"prev": a["id"], "next": b["id"]}
                        for a, b in pairwise(ordered)
                        if a["source_id"] == b["source_id"]
                    ],
                    lengths=_record_lengths(sources, episode_rows[first:end]) if high == end else None,
                )
            )
        first = end
    return parts


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
