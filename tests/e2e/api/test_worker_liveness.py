"""Whether ingest workers are alive is told (/readyz, /metrics), and what a dead worker held is given back when no
worker is alive to do it (workers/scheduler.py `release_orphaned`)."""

from __future__ import annotations

import os
import signal
import time

import pytest
from fastapi.testclient import TestClient

from app.api.worker_watch import workers_report
from engram.settings import WorkerSettings
from tests.support.graphql_client import GraphQL, operation
from tests.support.workers import start_worker
from workers.resources import get_job_store, get_redis
from workers.scheduler import INFLIGHT, PREFIX, Scheduler


def _no_worker_registered(timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while workers_report()["alive"] and time.monotonic() < deadline:
        time.sleep(0.5)


def test_readiness_tells_how_many_workers_are_alive(http: TestClient) -> None:
    body = http.get("/readyz").json()
    assert body["workers"]["alive"] >= 1 and body["workers"]["note"] == "ok"
    assert body["workers"]["lastSeen"] is not None


@pytest.mark.usefixtures("main_worker_stopped")
def test_with_no_worker_alive_readiness_says_since_when(http: TestClient) -> None:
    _no_worker_registered()  # registrations expire 3 reconcile intervals after the last beat
    response = http.get("/readyz")
    assert response.status_code == 200  # recall needs no worker: the API stays in service
    workers = response.json()["workers"]
    assert workers["alive"] == 0 and "no worker alive for" in workers["note"]


@pytest.mark.usefixtures("main_worker_stopped")
def test_a_dead_workers_stage_is_given_back_within_the_bound(gql: GraphQL) -> None:
    worker = start_worker("orphan")
    text = " ".join(f"Dana talked about the harbour number {n}." for n in range(400))
    job_id = gql(operation("remember"), {"text": text})["remember"]["id"]
    store = get_job_store()
    deadline = time.monotonic() + 180
    while store.status(job_id).stage not in ("extract", "embed", "write") and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=30)
    client = get_redis()
    assert client.zscore(INFLIGHT, job_id) is not None  # its stage is charged to the dead worker
    scheduler = Scheduler(client, WorkerSettings(orphan_release_s=1.0), lambda *_: None, ("cpu", "gpu"))
    _no_worker_registered()
    time.sleep(1.1)
    assert scheduler.release_orphaned() >= 1
    assert client.zscore(INFLIGHT, job_id) is None
    space = client.hget(PREFIX + "space", job_id)
    assert space is not None and job_id.encode() in client.lrange(PREFIX + "ready:" + space.decode(), 0, -1)
