"""Redis holds what jobs in flight need and little else: a finished job keeps a small status record, a forgotten
text leaves Redis with it, and a Redis that refuses writes gets a clear 503, not an internal error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from app.api.services import ApiServices
from tests.support.graphql_client import GraphQL, operation
from tests.support.jobs import wait_for_job
from workers.celery_app import CPU_QUEUE
from workers.jobs import FINISHED_JOB_TTL_S, JobState, JobStore
from workers.tasks.ingest import standardize_stage

MARKER = "quillfeatherton"  # a word that appears nowhere else in the tests' data
DOCUMENT = {
    "type": "document",
    "id": "marker-memo",
    "text": f"The {MARKER} telescope sits in the north tower.\n\nOnly the {MARKER} keeper may open the dome.",
}


def _job_keys(client: redis.Redis, job_id: str) -> list[str]:
    return sorted(k.decode() for k in client.scan_iter(f"engram:job:{job_id}*", count=1000))


def _holders_of(client: redis.Redis, needle: str, patterns: list[str]) -> list[str]:
    """Every key matching one of `patterns` whose name or value holds `needle` (any case), whatever its type."""
    found = []
    pattern = needle.lower().encode()
    names = {name for glob in patterns for name in client.scan_iter(glob, count=1000)}
    for name in sorted(names):
        kind = client.type(name).decode()
        values: list[Any] = [name]
        if kind == "string":
            values.append(client.get(name))
        elif kind == "hash":
            values += [item for pair in client.hgetall(name).items() for item in pair]  # type: ignore[union-attr]
        elif kind == "list":
            values += client.lrange(name, 0, -1)  # type: ignore[operator]
        elif kind in ("set", "zset"):
            values += client.smembers(name) if kind == "set" else client.zrange(name, 0, -1)  # type: ignore[operator]
        elif kind == "stream":
            values += [v for _, fields in client.xrange(name) for v in fields.values()]  # type: ignore[union-attr]
        if any(isinstance(v, bytes) and pattern in v.lower() for v in values):
            found.append(name.decode())
    return found


def test_a_succeeded_job_keeps_only_a_small_status_record(gql: GraphQL, services: ApiServices) -> None:
    job = gql.ingest([DOCUMENT])
    assert _job_keys(services.redis, job["id"]) == [f"engram:job:{job['id']}"]  # no payload, no artifacts
    assert 0 < services.redis.ttl(f"engram:job:{job['id']}") <= FINISHED_JOB_TTL_S


def test_an_ingest_leaves_no_celery_results(gql: GraphQL, services: ApiServices) -> None:
    """The stages' return values (the job id, passed down the chain in messages) are read by nobody: kept in the
    result backend they were five keys per job for a day (the soak's Redis grew ~2 MB in 10 minutes)."""
    job = gql.ingest([{**DOCUMENT, "id": "marker-memo-results"}])
    assert _holders_of(services.redis, job["id"], ["celery-task-meta-*"]) == []


def test_a_failed_job_keeps_only_its_status_record(space: str, services: ApiServices) -> None:
    store = JobStore(services.redis)
    job_id = store.create(space, [{"type": "conversation", "id": "c", "sessions": "x" * 100_000}])
    standardize_stage.si(job_id).apply_async(queue=CPU_QUEUE)
    assert wait_for_job(job_id, timeout_s=60).state is JobState.FAILED
    assert _job_keys(services.redis, job_id) == [f"engram:job:{job_id}"]
    assert 0 < services.redis.ttl(f"engram:job:{job_id}") <= FINISHED_JOB_TTL_S


def test_a_forgotten_text_is_nowhere_in_redis(gql: GraphQL, services: ApiServices, space: str) -> None:
    job = gql.ingest([DOCUMENT])
    # What Redis holds of this space and this job (other tests' spaces may hold the same words).
    mine = [f"*{space}*", f"engram:job:{job['id']}*"]
    assert _holders_of(services.redis, MARKER, mine), "the ingest left no trace to forget: the test proves nothing"
    source_id = gql(
        f'{{ recall(query: "{MARKER} telescope") {{ ... on Recall {{ items {{ provenance {{ sourceId }} }} }} }} }}'
    )
    [source] = {p["sourceId"] for item in source_id["recall"]["items"] for p in item["provenance"]}
    forgotten = gql(operation("forget"), {"sourceIds": [source]})["forget"]
    assert forgotten["sourceIds"] == [source]
    assert _holders_of(services.redis, MARKER, mine) == []


@pytest.fixture()
def full_redis(services: ApiServices) -> Iterator[None]:
    """This stack's Redis refusing every write, as a full one under `noeviction` does; restored afterwards."""
    client = services.redis
    saved = client.config_get("maxmemory*")
    client.config_set("maxmemory-policy", "noeviction")
    client.config_set("maxmemory", 1)
    try:
        yield
    finally:
        for name, value in saved.items():
            client.config_set(name, value)


def test_a_redis_that_refuses_writes_gets_a_clear_503(gql: GraphQL, full_redis: None) -> None:
    response = gql.raw(operation("stats"))
    assert response.status_code == 503, response.text
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "SERVICE_UNAVAILABLE"
    assert "Redis" in error["message"] and "retry" in error["message"]
    assert int(response.headers["Retry-After"]) > 0
