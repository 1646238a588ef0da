"""A space's unfinished ingest jobs hold their payloads in Redis (`noeviction`, one memory cap for every tenant): the
bytes they hold are counted per space, and past ENGRAM_API_MAX_PENDING_INGEST_BYTES the space's next job is refused
(OverBudget), storing nothing, until some finish. Other spaces queue as before."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import neo4j
import pytest
import redis
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation
from workers.jobs import JOB_INDEX, JOB_OVERHEAD_BYTES, JobState, JobStore, PendingLimit, wait_for_job

LIMIT = 40_000  # two jobs of _payload() fit (each charged its ~10 KB and JOB_OVERHEAD_BYTES), a third does not


def _payload(marker: str, size: int = 10_000) -> list[dict[str, object]]:
    return [{"type": "document", "id": marker, "text": "x" * size}]


@pytest.fixture()
def store(services: ApiServices) -> Iterator[JobStore]:
    """A job store whose jobs (queued, never run: no worker message is sent) are failed at the end, as a finished
    job leaves its space's count."""
    store = JobStore(services.redis)
    created: list[str] = []
    original = store.create

    def create(space: str, payload: list[dict[str, object]], max_pending_bytes: int = 0) -> str:
        job_id = original(space, payload, max_pending_bytes)
        created.append(job_id)
        return job_id

    store.create = create  # type: ignore[method-assign]
    yield store
    for job_id in created:
        store.fail(job_id, "test over")


def _job_count(client: redis.Redis) -> int:
    return int(client.zcard(JOB_INDEX))


def _payloads_holding(client: redis.Redis, marker: str) -> list[bytes]:
    return [key for key in client.scan_iter("engram:job:*:payload") if marker.encode() in (client.get(key) or b"")]


def test_a_space_past_its_limit_queues_nothing_until_a_job_finishes(store: JobStore, services: ApiServices) -> None:
    space, other = f"test-{uuid.uuid4().hex[:12]}", f"test-{uuid.uuid4().hex[:12]}"
    first = store.create(space, _payload("a"), LIMIT)
    store.create(space, _payload("b"), LIMIT)
    held = store.pending_bytes(space)
    assert 2 * (10_000 + JOB_OVERHEAD_BYTES) < held <= LIMIT
    jobs_before = _job_count(services.redis)
    marker = f"refused-{uuid.uuid4().hex}"
    with pytest.raises(PendingLimit) as refused:
        store.create(space, _payload(marker), LIMIT)
    assert refused.value.pending == held and refused.value.limit == LIMIT
    assert "ENGRAM_API_MAX_PENDING_INGEST_BYTES" in str(refused.value) and "resubmit" in str(refused.value)
    # Nothing of the refused job stays: no payload, no job in the index, no place in the count.
    assert _payloads_holding(services.redis, marker) == []
    assert _job_count(services.redis) == jobs_before
    assert store.pending_bytes(space) == held
    # Another space has a limit of its own.
    store.create(other, _payload("d"), LIMIT)
    # A finished job leaves the count: the space queues again.
    store.fail(first, "done")
    assert store.pending_bytes(space) < held
    store.create(space, _payload("c"), LIMIT)
    # A job over the limit on its own is told to split, not to wait.
    with pytest.raises(PendingLimit, match="split it"):
        store.create(other, _payload("huge", LIMIT), LIMIT)


def test_a_job_never_queued_is_discarded_with_its_charge(store: JobStore, services: ApiServices) -> None:
    space = f"test-{uuid.uuid4().hex[:12]}"
    job_id = store.create(space, _payload("a"), LIMIT)
    store.discard(job_id, space)
    assert list(services.redis.scan_iter(f"engram:job:{job_id}*")) == []
    assert services.redis.zscore(JOB_INDEX, job_id) is None
    assert store.pending_bytes(space) == 0


def test_an_abandoned_job_stops_counting_once_its_payload_is_gone(store: JobStore, services: ApiServices) -> None:
    space = f"test-{uuid.uuid4().hex[:12]}"
    abandoned = store.create(space, _payload("a"), LIMIT)
    store.create(space, _payload("b"), LIMIT)
    # The payload of a job nobody ran expires after JOB_TTL_S; its count must not outlive it.
    services.redis.delete(f"engram:job:{abandoned}:payload")
    store.create(space, _payload("c"), LIMIT)  # would be refused if the abandoned job still counted
    assert store.pending_bytes(space) < LIMIT


def test_the_api_answers_over_budget_and_queues_nothing(
    settings: EngramSettings, services: ApiServices, driver: neo4j.Driver, space: str, store: JobStore
) -> None:
    tightened = settings.model_copy(update={"api": settings.api.model_copy(update={"max_pending_ingest_bytes": LIMIT})})
    app = create_app(tightened, ApiServices(**{**services.__dict__, "settings": tightened}))
    with TestClient(app) as client:
        gql = GraphQL(client, issue_key(driver, space))
        filler = store.create(space, _payload("backlog", 30_000), LIMIT)  # a backlog the worker has not reached
        jobs_before = _job_count(services.redis)
        marker = f"refused-{uuid.uuid4().hex}"
        refused = gql(operation("ingest"), {"records": _payload(marker)})["ingest"]
        assert refused["__typename"] == "OverBudget", refused
        assert refused["limit"] == LIMIT and refused["requested"] > LIMIT
        assert "waiting or running" in refused["message"]
        assert _job_count(services.redis) == jobs_before
        assert _payloads_holding(services.redis, marker) == []
        store.fail(filler, "done")
        accepted = gql(operation("ingest"), {"records": _payload("next")})["ingest"]
        assert accepted["__typename"] == "Job", accepted
        # A job that runs to the end leaves the count (and writes nothing after the test's space is gone).
        assert wait_for_job(store, accepted["id"], timeout_s=120).state is JobState.SUCCEEDED
        assert store.pending_bytes(space) == 0
