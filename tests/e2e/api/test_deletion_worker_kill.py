"""A deletion made while a real worker's write stage runs, then `kill -9` of that worker and another worker taking
the redelivered stage: nothing of what the deletion names comes back (tests/e2e/api/test_deletion_races.py catches
every stage deterministically in-process; this is the same promise through a real crash and redelivery)."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import neo4j
import pytest

from engram.scope import memory_space
from engram.settings import EngramSettings
from tests.support.graph_queries import rows
from tests.support.graphql_client import GraphQL, operation
from tests.support.workers import start_worker
from workers.jobs import JobState
from workers.resources import get_job_store, get_redis

SECRET = "quillhaven"


def _records() -> list[dict[str, Any]]:
    """Three conversations of one user, each its own session (the label forget(session:) takes)."""
    return [
        {
            "type": "conversation",
            "id": f"chat-s{s}",
            "user": "dana",
            "session": f"s{s}",
            "sessions": [
                {
                    "id": f"s{s}",
                    "turns": [
                        {
                            "speaker": "Dana",
                            "id": f"s{s}-{t}",
                            "text": f"Dana saw the {SECRET if s == 1 else 'harbour'} {t}.",
                        }
                        for t in range(40)
                    ],
                }
            ],
        }
        for s in (1, 2, 3)
    ]


def _wait(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.parametrize("kind", ["deleteSpace", "forget-user", "forget-session"])
def test_a_deletion_during_a_killed_workers_write_holds(
    gql: GraphQL, driver: neo4j.Driver, space: str, settings: EngramSettings, main_worker_stopped: None, kind: str
) -> None:
    store = get_job_store()
    first = start_worker("deletion-kill-first", ENGRAM_WORKER_STAGE_SLICE_S="0.5")
    job_id = gql(operation("ingest"), {"records": _records()})["ingest"]["id"]
    try:
        _wait(lambda: store.status(job_id).stage == "write" and store.status(job_id).done >= 1, 240, "the write stage")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    if kind == "deleteSpace":
        answer = gql(operation("delete_space"), {"name": space}, key=settings.api.admin_key.get_secret_value())
    elif kind == "forget-user":
        answer = gql(operation("forget"), {"user": "dana"})
    else:
        answer = gql(operation("forget"), {"user": "dana", "session": "s1"})
    second = start_worker("deletion-kill-second")
    try:
        if kind == "forget-session":
            _wait(lambda: store.status(job_id).state is JobState.SUCCEEDED, 240, "the rest of the job")
        else:
            assert next(iter(answer.values()))["stoppedJobIds"] == [job_id]
            time.sleep(20)  # the dead worker's message redelivered (visibility 12 s) and run by the second worker
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=60)
    if kind == "forget-session":
        left = rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s RETURN count(e) AS n", s=space)
        assert left == [{"n": 80}]
    else:
        deleted = space if kind == "deleteSpace" else memory_space(space, "dana")
        left = "MATCH (n) WHERE n.space = $d OR n.space STARTS WITH $d + '/' RETURN count(n) AS n"
        assert rows(driver, left, d=deleted) == [{"n": 0}]
        assert [k for k in get_redis().scan_iter(f"*{deleted}*")] == []
        assert [k for k in get_redis().scan_iter(f"*{job_id}*")] == []
    found = rows(
        driver,
        "MATCH (n) WHERE n.space STARTS WITH $s "
        "AND any(k IN keys(n) WHERE n[k] IS :: STRING AND toLower(n[k]) CONTAINS $w) RETURN n.id AS id",
        s=space,
        w=SECRET,
    )
    assert found == []
