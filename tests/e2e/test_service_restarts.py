"""Neo4j or Redis restarted in the middle of an ingest job, the API restarted under an open job-progress
subscription: the job completes (or fails with a clear error and a resubmission completes) and the space holds
exactly what a clean ingestion of the same payload holds; the subscriber sees a clean close, not a hang."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import neo4j
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from engram.formats.loading import validate_records
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import operation
from tests.support.jobs import ingest, wait_for_job
from tests.support.restarts import graph_signature, left_running, service
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

TOPICS = ["pottery class", "marathon training", "adoption agency", "camping trip", "guitar lessons", "book club"]


def _payload() -> list[dict[str, Any]]:
    sessions = []
    for s in range(6):
        turns = [
            {"speaker": ["Ann", "Bob"][t % 2], "id": f"D{s}:{t}",
             "text": f"I went to the {TOPICS[(s + t) % 6]} number {s}-{t} last Saturday with my sister."}
            for t in range(4)
        ]  # fmt: skip
        sessions.append({"id": f"s{s}", "started_at": f"2023-0{1 + s}-10T10:00:00Z", "turns": turns})
    return [{"type": "conversation", "id": "restarts", "sessions": sessions}]


def _when_running(job_id: str, act: Callable[[], None], timeout_s: float = 120) -> str:
    """Runs `act` as soon as a stage of the job is running; returns that stage."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = get_job_store().status(job_id)
        assert status.state is not JobState.SUCCEEDED, "the job finished before the fault"
        if status.state is JobState.RUNNING:
            act()
            return status.stage
        time.sleep(0.02)
    raise TimeoutError(f"job {job_id} never started")


def _completed(job_id: str, space: str, payload: list[dict[str, Any]]) -> None:
    """The job succeeds, or fails with a clear error and a resubmission of the payload succeeds."""
    final = wait_for_job(job_id, timeout_s=420)
    if final.state is JobState.FAILED:
        assert f"job {job_id}" in final.error and "Traceback" not in final.error, final.error
        ingest(space, payload, timeout_s=300)


def _same_as_clean_ingestion(driver: neo4j.Driver, space: str, payload: list[dict[str, Any]]) -> None:
    reference = f"{space}-clean"
    try:
        ingest(reference, payload)
        after_fault, clean = graph_signature(driver, space), graph_signature(driver, reference)
        for part in ("nodes", "edges"):
            extra = Counter(map(str, after_fault[part])) - Counter(map(str, clean[part]))
            missing = Counter(map(str, clean[part])) - Counter(map(str, after_fault[part]))
            assert not extra and not missing, f"{part}: extra {dict(extra)}, missing {dict(missing)}"
        assert after_fault == clean
    finally:
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=reference)


def test_neo4j_restarted_mid_ingest_loses_and_duplicates_nothing(driver: neo4j.Driver, space: str) -> None:
    payload = _payload()
    with left_running("neo4j"):
        job_id = submit_ingest(space, validate_records(payload))
        _when_running(job_id, lambda: service("neo4j", "stop"))
        time.sleep(3)  # the stage meets the database gone
        service("neo4j", "start")
    _completed(job_id, space, payload)
    _same_as_clean_ingestion(driver, space, payload)


def test_redis_restarted_mid_ingest_loses_and_duplicates_nothing(driver: neo4j.Driver, space: str) -> None:
    payload = _payload()
    with left_running("redis"):
        job_id = submit_ingest(space, validate_records(payload))
        _when_running(job_id, lambda: service("redis", "stop"))
        time.sleep(3)
        service("redis", "start")
    _completed(job_id, space, payload)
    service("worker", "status")  # the worker outlived the broker's restart (exit 3 when stopped)
    _same_as_clean_ingestion(driver, space, payload)


async def _follow(url: str, key: str, job_id: str) -> tuple[ClientConnection, str]:
    """A socket subscribed to the job's progress, and the job's state in its first event."""
    ws = await websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")])
    await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key}}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
    subscribe = {"query": operation("job_progress"), "variables": {"id": job_id}}
    await ws.send(json.dumps({"id": "progress", "type": "subscribe", "payload": subscribe}))
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert first["type"] == "next", first
    return ws, first["payload"]["data"]["jobProgress"]["state"]


async def _closed_by_restart(url: str, key: str, job_id: str) -> tuple[int | None, list[str]]:
    ws, _ = await _follow(url, key, job_id)
    try:
        await asyncio.to_thread(service, "api", "stop")
        with pytest.raises(websockets.ConnectionClosed):
            while True:  # events that were on their way, then the close
                await asyncio.wait_for(ws.recv(), 10)
    finally:
        await asyncio.to_thread(service, "api", "start")
    code = ws.close_code
    ws, state = await _follow(url, key, job_id)
    states = [state]
    async with ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 300))
            if message["type"] != "next":
                assert message["type"] == "complete", message
                return code, states
            states.append(message["payload"]["data"]["jobProgress"]["state"])


def test_api_restarted_under_a_subscription_closes_it_cleanly(
    driver: neo4j.Driver, space: str, settings: EngramSettings
) -> None:
    key = issue_key(driver, space)
    payload = _payload()
    job_id = submit_ingest(space, validate_records(payload))
    url = f"ws://127.0.0.1:{settings.api.port}/graphql"
    with left_running("api"):
        code, states = asyncio.run(_closed_by_restart(url, key, job_id))
    assert code in (1001, 1012), f"closed with {code}, not a clean server restart"
    assert states[-1] == "SUCCEEDED", states
    # The job the subscription followed wrote what a clean ingestion writes (the API is not on the job's path); the
    # subscriber's key is the one node of the space that ingestion did not write.
    driver.execute_query("MATCH (k:ApiKey {space: $space}) DETACH DELETE k", space=space)
    _same_as_clean_ingestion(driver, space, payload)
