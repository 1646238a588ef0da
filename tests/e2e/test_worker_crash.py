"""Kill the worker in the middle of a job, start another: the job completes with no duplicate and no
missing node (late acknowledgement + redelivery + idempotent stages)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from typing import Any

import neo4j

from engram.formats.loading import validate_records
from tests.support.graph_queries import label_counts, relationship_counts, rows
from tests.support.jobs import ingest, wait_for_job
from tests.support.workers import WORKER_SH, start_worker
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

SUBJECTS = ["Ann", "Bob"]
TOPICS = [
    "pottery class", "marathon training", "adoption agency", "camping trip", "guitar lessons", "vegan recipes",
    "mountain hike", "book club", "charity race", "painting workshop", "job interview", "yoga retreat",
]  # fmt: skip


def _payload() -> list[dict[str, Any]]:
    sessions = []
    for s in range(60):
        turns = []
        for t in range(6):
            topic = TOPICS[(s * 7 + t) % len(TOPICS)]
            speaker = SUBJECTS[t % 2]
            text = f"I went to the {topic} number {s}-{t} last Saturday and met my friend {TOPICS[t]} there."
            turns.append({"speaker": speaker, "text": text, "id": f"D{s}:{t}"})
        sessions.append({"id": f"session_{s}", "started_at": f"2023-0{1 + s % 9}-1{s % 9}T10:00:00Z", "turns": turns})
    return [{"type": "conversation", "id": "crash", "sessions": sessions}]


def test_killed_worker_mid_job_loses_and_duplicates_nothing(
    driver: neo4j.Driver, space: str, main_worker_stopped: None
) -> None:
    records = validate_records(_payload())
    first = start_worker("crash-first")
    job_id = submit_ingest(space, records)
    killed_in = None
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        status = get_job_store().status(job_id)
        if status.stage in ("embed", "write") and status.state is JobState.RUNNING:
            os.killpg(first.pid, signal.SIGKILL)
            killed_in = status.stage
            break
        assert status.state is not JobState.SUCCEEDED, "job finished before the worker could be killed"
        time.sleep(0.02)
    first.wait(timeout=30)
    assert killed_in, "the job never reached the embed or write stage"
    assert get_job_store().status(job_id).state is JobState.RUNNING  # stuck until a worker picks it up again

    second = start_worker("crash-second")
    try:
        final = wait_for_job(job_id, timeout_s=240)
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=60)
    assert final.state is JobState.SUCCEEDED, final.error

    reference = f"{space}-reference"
    try:
        subprocess.run(["bash", WORKER_SH, "start"], check=True)
        ingest(reference, _payload())
        assert label_counts(driver, space) == label_counts(driver, reference)
        assert relationship_counts(driver, space) == relationship_counts(driver, reference)
        texts = "MATCH (p:Proposition {space: $s}) RETURN p.text AS t ORDER BY t"
        assert rows(driver, texts, s=space) == rows(driver, texts, s=reference)
        duplicates = "MATCH (p:Proposition {space: $s}) WITH p.text AS t, count(*) AS n WHERE n > 1 RETURN t"
        assert rows(driver, duplicates, s=space) == []
        assert label_counts(driver, space)["Episode"] == 360
    finally:
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=reference)


def test_a_stage_redelivered_after_its_job_succeeded_changes_nothing(space: str) -> None:
    """A worker that dies after finishing a stage but before acknowledging it gets the stage redelivered, possibly
    after the whole job completed and dropped its artifacts: the late stage must leave the job succeeded."""
    from workers.tasks.ingest import consolidate_stage, embed_stage, extract_stage, standardize_stage, write_stage

    turns = [{"speaker": "Ann", "text": "I started pottery classes on Monday.", "id": "D1:1"}]
    job_id = ingest(space, [{"type": "conversation", "id": "late", "sessions": [{"id": "s1", "turns": turns}]}]).id
    store = get_job_store()
    for stage in (standardize_stage, extract_stage, embed_stage, write_stage, consolidate_stage):
        assert stage.apply(args=(job_id,)).get() == job_id
        assert store.status(job_id).state is JobState.SUCCEEDED
    store.fail(job_id, "stage write: a late failure")
    assert store.status(job_id).state is JobState.SUCCEEDED
