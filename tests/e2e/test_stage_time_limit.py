"""A stage past its time limit is stopped: its job fails with TIME_LIMIT (stage, limit, job id: nothing of the
worker's internals), nothing is half-written, and the worker takes the next job. A stage busy in Python stops at the
soft limit and its pool process takes the next job; one waiting on a database lock, where the soft limit cannot
interrupt the driver (its rollback waits for the server), is stopped by the hard limit and its process replaced."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import neo4j

from engram.formats.loading import validate_records
from tests.support.graph_queries import label_counts, relationship_counts
from tests.support.jobs import wait_for_job
from tests.support.workers import start_worker
from workers.jobs import JobState
from workers.pipeline.standardize import standardize
from workers.tasks.ingest import submit_ingest

SOFT_S, HARD_S = 4, 20


def _long_chat(turns: int) -> dict[str, Any]:
    """One conversation of `turns` distinct statements, 50 turns a session: seconds of embedding."""
    sessions = [
        {"id": f"s{start}", "turns": [
            {"speaker": "Bo", "id": f"t{n}", "text": f"I went to pottery class {n} on Saturday and met Ann {n} there."}
            for n in range(start, min(start + 50, turns))
        ]}
        for start in range(0, turns, 50)
    ]  # fmt: skip
    return {"type": "conversation", "id": "long", "sessions": sessions}


def test_a_busy_stage_stops_at_its_soft_limit_and_its_process_takes_the_next_job(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any], main_worker_stopped: None
) -> None:
    worker = start_worker("soft-limit", ENGRAM_WORKER_STAGE_TIME_LIMITS_S=json.dumps({"embed": [2, 120]}))
    try:
        started = time.monotonic()
        failed = wait_for_job(submit_ingest(space, validate_records([_long_chat(1500)])), timeout_s=120)
        assert failed.state is JobState.FAILED
        assert failed.error.startswith("TIME_LIMIT: stage embed exceeded 2 s"), failed.error
        assert time.monotonic() - started < 60  # well before the hard limit: the soft one stopped it
        assert label_counts(driver, space) == {}  # the job never reached its write stage
        done = wait_for_job(submit_ingest(space, validate_records([conversation])), timeout_s=120)
        assert done.state is JobState.SUCCEEDED, done.error
        assert worker.poll() is None
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)


def test_a_stage_past_its_time_limit_fails_its_job_and_frees_the_worker(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any], main_worker_stopped: None
) -> None:
    records = validate_records([conversation])
    reference = f"{space}-reference"
    source = standardize(space, records).sources[0].id
    # The job's first source exists and another transaction holds its write lock: the write stage, which sets the
    # source's fields first, waits on it far past its limit (a wedged stage). The other stages have the defaults.
    driver.execute_query("MERGE (:Source {space: $space, id: $id})", space=space, id=source)
    worker = start_worker("time-limit", ENGRAM_WORKER_STAGE_TIME_LIMITS_S=json.dumps({"write": [SOFT_S, HARD_S]}))
    try:
        with driver.session() as session:
            holder = session.begin_transaction()
            holder.run("MATCH (s:Source {space: $space, id: $id}) SET s.held = true", space=space, id=source).consume()
            try:
                job_id = submit_ingest(space, records)
                started = time.monotonic()
                failed = wait_for_job(job_id, timeout_s=3 * HARD_S)
                stopped_after = time.monotonic() - started
            finally:
                holder.rollback()
        assert failed.state is JobState.FAILED
        assert failed.error.startswith(f"TIME_LIMIT: stage write exceeded {HARD_S} s (job {job_id}) and was stopped")
        assert "resubmit" in failed.error and "Error" not in failed.error  # what to do; no exception text
        assert stopped_after < 2 * HARD_S, stopped_after
        # Nothing half-written: each write is one transaction, whole or not at all. The stopped one (sources,
        # episodes, knowledge) rolled back; the one before it committed the new concepts (MERGE on their ids) and the
        # Space node recording the space's embedder.
        partial = label_counts(driver, space)
        assert partial.keys() == {"Source", "Concept", "Space"} and partial["Source"] == 1, partial
        # The same worker takes the next job, the same records resubmitted, and the space ends as a clean ingestion.
        again = wait_for_job(submit_ingest(space, records), timeout_s=240)
        assert again.state is JobState.SUCCEEDED, again.error
        assert worker.poll() is None
        clean = wait_for_job(submit_ingest(reference, records), timeout_s=240)
        assert clean.state is JobState.SUCCEEDED, clean.error
        assert label_counts(driver, space) == label_counts(driver, reference)
        assert partial["Concept"] == label_counts(driver, reference)["Concept"]  # every concept, none half
        assert relationship_counts(driver, space) == relationship_counts(driver, reference)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=reference)
