"""Bulk import (`engram import`): the ingest pipeline's stages in one process, batch after batch. The main thread
extracts; each batch's embedding and writes run on one of `writers` task threads, overlapping the extraction of the
next batches and the other batches' writes (embedding calls take turns: each already uses every core).

The graph is the one ingestion builds from the same records sent as consecutive jobs of `batch_size` records, one
after another (one job when the file fits in a batch): the same standardize / extract / embed functions and the same
MemoryWriter statements. Extraction runs in order, each batch assimilating its phrases into the keys of every batch
before it (held in memory, as a job would read them from the graph). Writes run under two orderings that keep the
result independent of timing: a batch writes its new concepts and intents only after the previous batch has written
its own (its sources link to both), and a batch repeating a proposition of an earlier batch waits for that batch
(the first writer sets a proposition's properties, as the earlier job would have).
Revisions (a later statement revising an earlier one, ENGRAM_WORKER_REVISIONS) are linked once at the end over every
proposition written, as each job's consolidate stage links its own; then associations, df and idf are recounted over
the whole space (consolidation's association step).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime

import neo4j
import numpy as np
import redis
from numpy.typing import NDArray

from engram.embedder_identity import EmbedderIdentity
from engram.extraction.assimilation import SchemaKey
from engram.extraction.base import PropositionExtractor
from engram.formats.records import Record
from engram.scope import validate_memory_space
from engram.settings import get_settings
from graph.concept_keys.reads import load_concept_keys
from graph.concept_keys.tries import publish_written_keys
from graph.consolidation.associations import refresh_all
from graph.consolidation.revisions import RevisionRules, link_revisions_of
from graph.cypher import load
from graph.memory_writer import MemoryBatch, MemoryWriter
from workers.pipeline.embed import embed_batch
from workers.pipeline.extract import ExtractedKnowledge, extract
from workers.pipeline.standardize import StandardizedBatch, standardize

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
DEFAULT_BATCH = 500  # records per batch (an ingest job holds at most 10,000)


@dataclass
class ImportReport:
    records: int = 0
    skipped_records: int = 0  # in batches already stored (a rerun, or a resumed import)
    sources: int = 0
    episodes: int = 0
    propositions: int = 0
    new_concepts: int = 0
    intents: int = 0
    prescriptions: int = 0
    facts_revised: int = 0  # earlier statements a later one revises (linked SUPERSEDES, reason 'updated')
    seconds: float = 0.0
    # Seconds per stage: extract in the main thread; embed and write summed over the task threads (they overlap each
    # other and the main thread; embed includes waiting for the model); waiting = main thread blocked on the tasks;
    # revisions and associations at the end.
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def add(self, stage: str, seconds: float) -> None:
        self.stage_seconds[stage] = round(self.stage_seconds.get(stage, 0.0) + seconds, 3)


@dataclass
class BatchWork:
    """What extraction hands to a batch's embed-and-write task."""

    batch: StandardizedBatch
    knowledge: ExtractedKnowledge
    concept_vectors: NDArray[np.float32]
    records: int


ProgressFn = Callable[[int, int], None]  # (records done, propositions written), called as batches finish


def record_batches(records: Sequence[Record], size: int) -> Iterator[Sequence[Record]]:
    for start in range(0, len(records), size):
        yield records[start : start + size]


class BulkImporter:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        space: str,
        extractor: PropositionExtractor,
        embed: EmbedFn,
        client: redis.Redis | None = None,
        writers: int = 2,
        embedder: EmbedderIdentity | None = None,
    ) -> None:
        """`embed` serves extraction (concept phrases, main thread) and the batches' texts (task threads), one call
        at a time: the model's tokenizer is not safe across threads, and one call already uses every core.
        `embedder`: whose vectors `embed` computes (the space records it; default: this process's settings')."""
        self._driver = driver
        self._database = database
        self._space = validate_memory_space(space)
        self._extractor = extractor
        self._embed_lock = threading.Lock()
        self._in_process = embed
        self._redis = client  # key tries of running processes learn the new keys through it, as after a job
        self._writer = MemoryWriter(driver, database, embedder)  # the space records who computed `embed`'s vectors
        self._writers = writers
        self._lock = threading.Lock()
        self._progress: ProgressFn | None = None
        self._done = [0, 0]
        self._since = datetime.now(UTC)  # when this import began: a deletion of its space begun later wins

    def run(
        self, records: Sequence[Record], batch_size: int = DEFAULT_BATCH, progress: ProgressFn | None = None
    ) -> ImportReport:
        self._since = datetime.now(UTC)
        if batch_size < 1:
            raise ValueError(f"batch size must be at least 1, not {batch_size}")
        report = ImportReport(records=len(records))
        started = time.perf_counter()
        schema = load_concept_keys(self._driver, self._database, self._space)
        first_batch: dict[str, int] = {}  # proposition id -> the batch that writes it first
        futures: dict[int, Future[None]] = {}
        previous_schema: threading.Event | None = None
        self._progress = progress
        self._done = [0, 0]  # records, propositions written (a statement repeated by a later batch counts again)
        tasks = self._writers
        with ThreadPoolExecutor(tasks, thread_name_prefix="engram-import") as pool:
            for index, chunk in enumerate(record_batches(records, batch_size)):
                mark = time.perf_counter()
                batch = standardize(self._space, list(chunk))
                if self._stored(batch):
                    report.skipped_records += len(chunk)
                    self._advance(len(chunk), 0)
                    continue
                knowledge, concept_vectors = extract(batch, self._extractor, schema, self._embed)
                report.add("extract", time.perf_counter() - mark)
                schema.extend(
                    SchemaKey(c.key, c.name, v) for c, v in zip(knowledge.new_concepts, concept_vectors, strict=True)
                )
                earlier = {first_batch[p.id] for p in knowledge.propositions if p.id in first_batch}
                for proposition in knowledge.propositions:
                    first_batch.setdefault(proposition.id, index)
                schema_written = threading.Event()
                dependencies = [futures[i] for i in sorted(earlier)]
                work = BatchWork(batch, knowledge, concept_vectors, len(chunk))
                futures[index] = pool.submit(
                    self._embed_and_write, work, previous_schema, schema_written, dependencies, report
                )
                previous_schema = schema_written
                mark = time.perf_counter()
                self._settle(futures, keep=tasks)  # bounded: at most `tasks` batches wait in memory
                report.add("waiting", time.perf_counter() - mark)
            mark = time.perf_counter()
            self._settle(futures, keep=0)
            report.add("waiting", time.perf_counter() - mark)
        mark = time.perf_counter()
        rules = RevisionRules(enabled=get_settings().worker.revisions)
        revised = link_revisions_of(self._driver, self._database, self._space, sorted(first_batch), rules)
        report.facts_revised = revised.revised
        report.add("revisions", time.perf_counter() - mark)
        mark = time.perf_counter()
        refresh_all(self._driver, self._database, self._space)
        report.add("associations", time.perf_counter() - mark)
        report.propositions = len(first_batch)  # distinct statements of the batches written now
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def _embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        with self._embed_lock:
            return self._in_process(texts)

    def _advance(self, records: int, propositions: int) -> None:
        with self._lock:
            self._done[0] += records
            self._done[1] += propositions
            if self._progress:
                self._progress(self._done[0], self._done[1])

    def _stored(self, batch: StandardizedBatch) -> bool:
        ids = [e.id for e in batch.episodes]
        records, _, _ = self._driver.execute_query(
            load("ingest/count_stored_episodes"), space=self._space, episode_ids=ids, database_=self._database,
            routing_=neo4j.RoutingControl.READ,
        )  # fmt: skip
        return bool(ids) and int(records[0]["stored"]) == len(ids)

    def _embed_and_write(
        self,
        work: BatchWork,
        previous_schema: threading.Event | None,
        schema_written: threading.Event,
        earlier: list[Future[None]],
        report: ImportReport,
    ) -> None:
        try:
            started = time.perf_counter()
            vectors = embed_batch(work.batch, work.knowledge, self._embed)
            embedded = time.perf_counter()
            memory = MemoryBatch(
                space=self._space, sources=work.batch.sources, episodes=work.batch.episodes,
                episode_vectors=vectors["episodes"], concepts=work.knowledge.new_concepts,
                concept_vectors=work.concept_vectors, propositions=work.knowledge.propositions,
                proposition_vectors=vectors["propositions"], intents=work.knowledge.intents,
                intent_vectors=vectors["intents"], prescriptions=work.knowledge.prescriptions,
                prescription_vectors=vectors["prescriptions"],
            )  # fmt: skip
            if previous_schema is not None:
                previous_schema.wait()
            self._writer.write_schema(memory, self._since)
        finally:
            schema_written.set()  # a failed batch fails the import; the next ones must not hang on it
        for future in earlier:
            future.result()
        self._writer.write_sources(memory, None, self._since)
        if self._redis is not None:
            concepts, intents = [c.key for c in memory.concepts], [i.text for i in memory.intents]
            publish_written_keys(self._redis, self._space, concepts, intents)
        with self._lock:
            report.add("embed", embedded - started)
            report.add("write", time.perf_counter() - embedded)
            report.sources += len(memory.sources)
            report.episodes += len(memory.episodes)
            report.new_concepts += len(memory.concepts)
            report.intents += len(memory.intents)
            report.prescriptions += len(memory.prescriptions)
        self._advance(work.records, len(memory.propositions))

    @staticmethod
    def _settle(futures: dict[int, Future[None]], keep: int) -> None:
        """Wait until at most `keep` writes are unfinished; a failed write raises here and stops the import."""
        while True:
            pending = [f for f in futures.values() if not f.done()]
            for future in futures.values():
                if future.done():
                    future.result()
            if len(pending) <= keep:
                return
            wait(pending, return_when=FIRST_COMPLETED)
