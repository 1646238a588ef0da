"""Fair scheduling between spaces, and what a purge or a lost message leaves behind (issue 47: N2, N3, N6).

Each test stops the stack's worker and runs workers of its own (tests/support/workers.py), so that its jobs are the
only ones its workers take."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime
from typing import Any

import pytest
import redis

from engram.formats.loading import validate_records
from engram.settings import WorkerSettings
from graph.driver import get_driver
from tests.support.jobs import wait_for_job
from tests.support.workers import start_worker
from workers.jobs import JobState, JobStatus
from workers.resources import get_job_store, get_redis
from workers.scheduler import CONSOLIDATION, INFLIGHT, UNACKED, Scheduler
from workers.tasks.ingest import get_scheduler, submit_ingest
from workers.tasks.job_stops import PURGED_ERROR, purge_jobs

WORDS = ["harbor", "lantern", "meadow", "copper", "violin", "glacier", "orchard", "canyon", "ember", "falcon"]


def _small(marker: str) -> list[dict[str, Any]]:
    turns = [
        {"speaker": "Ann", "id": f"D1:{t}", "text": f"I saw the {WORDS[t]} fair {marker} on Sunday."} for t in range(3)
    ]
    return [{"type": "conversation", "id": f"small-{marker}", "sessions": [{"id": "s1", "turns": turns}]}]


def _large(marker: str, sentences: int = 400) -> list[dict[str, Any]]:
    text = " ".join(
        f"The {WORDS[i % 10]} team moved the {WORDS[(i * 3) % 10]} crate {i} to the {WORDS[(i * 7) % 10]} dock."
        for i in range(sentences)
    )
    return [{"type": "document", "id": f"large-{marker}", "text": text}]


def _submit(space: str, payload: list[dict[str, Any]]) -> str:
    return submit_ingest(space, validate_records(payload))


def _queue_wait_s(status: JobStatus) -> float:
    """Seconds the job spent not running: before its first stage and between its stages."""
    e2e = (datetime.fromisoformat(status.finished_at) - datetime.fromisoformat(status.created_at)).total_seconds()
    return e2e - sum(status.stage_seconds.values())


def _when_running(job_id: str, timeout_s: float = 400) -> JobStatus:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = get_job_store().status(job_id)
        assert status.state is not JobState.SUCCEEDED, "the job finished before the test could act"
        if status.state is JobState.RUNNING and status.stage in ("extract", "embed", "write"):
            return status
        time.sleep(0.02)
    raise TimeoutError(f"job {job_id} never ran")


def _drop_messages_of(job_ids: list[str]) -> int:
    """Deletes the broker's messages of these jobs, queued or taken by a worker (a purge, Redis data lost)."""
    client, dropped = get_redis(), 0
    for queue in ("cpu", "gpu"):
        for item in client.lrange(queue, 0, -1):
            if any(job_id.encode() in item for job_id in job_ids):
                dropped += int(client.lrem(queue, 0, item))  # type: ignore[arg-type]
    held: dict[bytes, bytes] = client.hgetall(UNACKED)  # type: ignore[assignment]
    for tag, item in held.items():
        if any(job_id.encode() in item for job_id in job_ids):  # named in the message headers (argsrepr)
            dropped += int(client.hdel(UNACKED, tag))
            client.zrem("unacked_index", tag)
    return dropped


def test_a_flooding_space_leaves_a_slot_to_the_others(space: str, main_worker_stopped: None) -> None:
    """One space queues several large jobs; another, active a moment ago, submits a small one: it runs on the slot
    the flood may not take instead of waiting behind the flood's stages (in one queue each of its stages waited
    behind a stage of every flood job: longer, in all, than one flood job's whole run)."""
    workers = [start_worker("fair-a"), start_worker("fair-b")]  # two slots, on two workers
    other = f"{space}-other"
    try:
        # The small tenant was active lately: a slot is kept for it.
        assert wait_for_job(_submit(other, _small("warm")), timeout_s=400).state is JobState.SUCCEEDED
        flood = [_submit(space, _large(str(n), 300)) for n in range(3)]
        _when_running(flood[0], timeout_s=400)
        small = wait_for_job(_submit(other, _small("late")), timeout_s=400)
        assert small.state is JobState.SUCCEEDED, small.error
        flood_done = [wait_for_job(job_id, timeout_s=900) for job_id in flood]
        assert all(s.state is JobState.SUCCEEDED for s in flood_done)
        assert _queue_wait_s(small) < 0.5 * sum(flood_done[0].stage_seconds.values()), (small, flood_done[0])
        assert small.finished_at < flood_done[1].finished_at
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=60)
        get_driver().execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=other)


def test_purged_jobs_run_nothing_more_even_when_redelivered(space: str, main_worker_stopped: None) -> None:
    """N3: the operator purges a space's jobs while a worker runs a stage of one; the worker dies, its message is
    redelivered to the next worker: the purged jobs run no further stage, keep the purge's error, hold no charge."""
    first = start_worker("purge-first")
    running = _submit(space, _large("purged", 300))
    queued = _submit(space, _small("queued"))
    at = _when_running(running)
    queued_at = get_job_store().status(queued)  # with a slot free it may have started too
    assert set(purge_jobs(space)) == {running, queued}
    os.killpg(first.pid, signal.SIGKILL)  # its message stays taken and unacknowledged: it is redelivered
    first.wait(timeout=30)
    second = start_worker("purge-second")
    try:
        # The dead worker's message comes back after the test workers' visibility timeout (12 s) and is taken.
        deadline = time.monotonic() + 60
        while running in get_scheduler().live_messages() or time.monotonic() < deadline - 30:
            assert time.monotonic() < deadline, "the dead worker's message was never redelivered and taken"
            time.sleep(1)
        store = get_job_store()
        for job_id in (running, queued):
            status = store.status(job_id)
            assert status.state is JobState.FAILED and status.error == PURGED_ERROR, status
        # Nothing started after the purge: the stage running at the purge may have finished before the kill.
        assert store.status(running).stages_done in (at.stages_done, [*at.stages_done, at.stage])
        assert store.status(queued).stages_done in (
            queued_at.stages_done,
            [*queued_at.stages_done, queued_at.stage] if queued_at.stage else queued_at.stages_done,
        )
        assert store.pending_bytes(space) == 0
        assert get_scheduler().current_stage(running) is None
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=60)


def test_lost_messages_neither_strand_jobs_nor_keep_their_charge(space: str, main_worker_stopped: None) -> None:
    """N6: a worker dies and the messages of a space's jobs are lost with it (a purged queue, Redis data lost): the
    jobs complete all the same, and their space is charged nothing once they have."""
    first = start_worker("lost-first")
    jobs = [_submit(space, _large("lost", 200)), _submit(space, _small("after"))]
    _when_running(jobs[0])
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    assert _drop_messages_of(jobs) >= 1
    assert get_job_store().pending_bytes(space) > 0
    second = start_worker("lost-second")
    try:
        finals = [wait_for_job(job_id, timeout_s=600) for job_id in jobs]
        assert [s.state for s in finals] == [JobState.SUCCEEDED] * 2, finals
        assert get_job_store().pending_bytes(space) == 0
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=60)


def test_a_charge_whose_job_is_gone_is_released(space: str) -> None:
    """N6: a job whose record was lost (Redis data lost) but whose payload remains no longer holds its space's
    charge once the reconciler has run (before, it held it until the payload expired: 7 days)."""
    store = get_job_store()
    job_id = store.create(space, [{"type": "document", "id": "gone", "text": "x" * 5000}])
    get_redis().delete(f"engram:job:{job_id}")  # the record lost, the payload and the charge left
    assert store.pending_bytes(space) > 0
    done = get_scheduler().reconcile(store)
    assert done["released"] >= 1
    assert store.pending_bytes(space) == 0
    get_redis().delete(f"engram:job:{job_id}:payload")


@pytest.fixture(autouse=True)
def _no_stray_scheduler_state(space: str) -> Any:
    yield
    for job_id in purge_jobs(space):
        get_scheduler().forget(job_id)


@pytest.fixture()
def own_redis() -> Any:
    """A Redis database of the test's own (the stack's server, database 14): the scheduler's decisions alone, with
    no other tenant's jobs and no worker."""
    # Not from_url(url, db=14): the URL's own database wins over the keyword, and the stack's would be flushed.
    client = redis.Redis(
        connection_pool=redis.ConnectionPool(**{**get_redis().connection_pool.connection_kwargs, "db": 14})
    )
    assert client.connection_pool.connection_kwargs["db"] == 14 and client.client_info()["db"] == 14
    client.flushdb()
    yield client
    client.flushdb()


def test_dispatch_shares_slots_between_spaces(own_redis: redis.Redis) -> None:
    """The dispatcher's rules on 2 slots: a lone space borrows both; a space active lately keeps one free while it
    is idle; round-robin and fewest-running first; a stage run twice moves its job on once."""
    sent: list[tuple[str, str]] = []
    settings = WorkerSettings(space_share=0.5, borrow_after_idle_s=30)
    scheduler = Scheduler(own_redis, settings, lambda job, stage, *_: sent.append((job, stage)), ["cpu", "gpu"])
    scheduler.submit("f0", "flood")
    assert sent == []  # no worker: nothing is queued in the broker
    scheduler.register_worker("w1", 1)
    scheduler.register_worker("w2", 1)
    for job in ("f1", "f2", "f3"):
        scheduler.submit(job, "flood")
    assert sent == [("f0", "standardize"), ("f1", "standardize")]  # alone: both slots
    scheduler.submit("s0", "small")
    assert len(sent) == 2  # every slot busy: it waits for the next stage to end, not for the flood's jobs
    assert scheduler.advance("f0", "standardize")
    assert sent[-1] == ("s0", "standardize")  # least slot time first: the small space, not f0's next stage
    assert not scheduler.advance("f0", "standardize")  # a duplicate run moves nothing
    for stage in ("standardize", "extract", "embed", "write", "consolidate"):
        assert scheduler.advance("s0", stage)
    # The small space is idle but was active a moment ago: the flood keeps to its share, one slot.
    assert sent[-1] == ("s0", "consolidate") and len(own_redis.zrange(INFLIGHT, 0, -1)) == 1
    scheduler.submit("s1", "small")
    assert sent[-1] == ("s1", "standardize")
    scheduler.forget("f2")  # purged: it leaves its space's list
    assert own_redis.lrange("engram:sched:ready:flood", 0, -1) == [b"f0", b"f3"]


def test_a_sliced_stage_waits_for_a_slot_again(own_redis: redis.Redis) -> None:
    """A stage that spent its time slice (a large embed) goes back to wait at the same stage: a space waiting for
    the one slot gets it first."""
    sent: list[tuple[str, str]] = []
    scheduler = Scheduler(own_redis, WorkerSettings(), lambda job, stage, *_: sent.append((job, stage)), ["cpu"])
    scheduler.register_worker("w1", 1)
    scheduler.submit("f0", "flood")
    assert scheduler.advance("f0", "standardize", again=True)
    assert sent == [("f0", "standardize")] * 2  # alone: its next slice at once
    scheduler.submit("s0", "small")
    assert scheduler.advance("f0", "standardize", again=True)
    assert sent[-1] == ("s0", "standardize")
    assert scheduler.current_stage("f0") == "standardize"
    assert own_redis.lrange("engram:sched:ready:flood", 0, -1) == [b"f0"]


def test_a_consolidation_run_holds_a_slot_of_its_space(own_redis: redis.Redis) -> None:
    """A consolidation run is scheduled as a one-stage job of its space: while it runs it takes a slot, and its
    space's ingest keeps to the space's share, so another tenant's ingest still finds the slot kept for it."""
    sent: list[tuple[str, str, str]] = []
    settings = WorkerSettings(space_share=0.5, borrow_after_idle_s=30)
    scheduler = Scheduler(own_redis, settings, lambda job, stage, space, _: sent.append((job, stage, space)), ["cpu"])
    scheduler.register_worker("w1", 1)
    scheduler.register_worker("w2", 1)
    scheduler.submit("b0", "small")
    for stage in ("standardize", "extract", "embed", "write", "consolidate"):
        assert scheduler.advance("b0", stage)  # the small tenant was active a moment ago, and is idle now
    scheduler.submit("run-1", "big", stage=CONSOLIDATION)
    assert sent[-1] == ("run-1", CONSOLIDATION, "big")  # its message carries the space it consolidates
    scheduler.submit("a0", "big")
    assert sent[-1][0] == "run-1"  # a slot is free, but the big space already holds its share: the run
    scheduler.submit("b1", "small")
    assert sent[-1] == ("b1", "standardize", "small")
    assert scheduler.finish("run-1", CONSOLIDATION)
    assert not scheduler.finish("run-1", CONSOLIDATION)  # a redelivered run's end moves nothing
    assert sent[-1] == ("a0", "standardize", "big")  # the run's slot goes to its space's waiting ingest
    assert scheduler.current_stage("run-1") is None


def test_repeated_consolidation_requests_queue_one_run(space: str, main_worker_stopped: None) -> None:
    """A tenant asking for a consolidation again and again while one waits gets that one's id: one run is queued,
    not one per call (each would hold its space's slot in turn). Once it has started, a request queues a new run."""
    from workers.celery_app import app
    from workers.tasks.consolidate import submit_consolidation

    first = submit_consolidation(space)
    assert [submit_consolidation(space) for _ in range(5)] == [first] * 5
    assert get_redis().lrange(f"engram:sched:ready:{space}", 0, -1) == [first.encode()]
    worker = start_worker("consolidate-once")
    try:
        assert app.AsyncResult(first).get(timeout=300)["skipped"] is False
        again = submit_consolidation(space)
        assert again != first
        assert app.AsyncResult(again).get(timeout=300)["space"] == space
        assert get_scheduler().current_stage(first) is None and get_scheduler().current_stage(again) is None
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
