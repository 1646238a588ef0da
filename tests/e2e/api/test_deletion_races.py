"""Deletion wins over work in flight: a deleteSpace, forget(user), forget(session) or forget(source) made while an
ingest job of that scope is at any stage leaves nothing of what it names, in Neo4j or in Redis, once the job settles.

The job's stages run here, in this process, one after the other, as the stack's worker would run them (the same task
functions, on the real Neo4j and Redis; the stack's worker is stopped meanwhile so that it takes none of them): that
catches the job deterministically between any two stages and between two parts of its write (the write stage is
sliced one part at a time). A stage run again after the deletion is what a redelivered message does after its worker
was killed (`kill -9` of a real worker is exercised in tests/e2e/test_deletion_worker_kill.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
import redis

from engram.scope import memory_space
from engram.settings import EngramSettings, get_settings
from tests.support.graph_queries import rows
from tests.support.graphql_client import GraphQL, operation
from tests.support.workers import stack_worker_stopped
from workers.jobs import JobState
from workers.resources import get_job_store, get_redis
from workers.tasks import ingest as stages
from workers.tasks import job_stops

SECRET = "zanzibarville"  # said only in session s1
SESSIONS = {"s1": SECRET, "s2": "lisbon harbour", "s3": "porto bridge"}
POINTS = ["queued", "standardize", "extract", "embed", "write-part", "write"]
KINDS = ["deleteSpace", "forget-user", "forget-session", "forget-source"]
USER = "dana"
TURNS = 14  # per session: the job's write takes two parts (graph/memory_writer.py ROWS_PER_TRANSACTION)


def _records() -> list[dict[str, Any]]:
    """One job of three conversations of the user, each its own session (the scope label forget(session:) takes)."""
    return [
        {
            "type": "conversation",
            "id": f"chat-{session}",
            "user": USER,
            "session": session,
            "sessions": [
                {
                    "id": session,
                    "started_at": f"2024-05-0{index + 1}T10:00:00Z",
                    "turns": [
                        {
                            "speaker": "Dana",
                            "id": f"{session}-{t}",
                            "text": f"Dana walked around {place} with Kestrel {t}.",
                        }
                        for t in range(TURNS)
                    ],
                }
            ],
        }
        for index, (session, place) in enumerate(SESSIONS.items())
    ]


@pytest.fixture(scope="module")
def stages_here() -> Iterator[None]:
    """The stack's worker stopped for the module: this process runs the stages."""
    with stack_worker_stopped():
        yield


@pytest.fixture()
def one_part_per_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run of the write stage writes one part and yields its slot, as a busy worker's slices do."""
    monkeypatch.setattr(get_settings().worker, "stage_slice_s", 0.0)


def _run(job_id: str, until: str | None) -> None:
    """Runs the job's stages in order, stopping before `until` ('write-part': after the write's first part)."""
    order = [
        ("standardize", stages.standardize_stage),
        ("extract", stages.extract_stage),
        ("embed", stages.embed_stage),
        ("write", stages.write_stage),
        ("consolidate", stages.consolidate_stage),
    ]
    store = get_job_store()
    if until == "queued":
        return
    for name, stage in order:
        if name == until:
            return
        if name == "write":
            stage(job_id)  # one part
            if until == "write-part":
                return
            while store.unfinished(job_id) and "write" not in store.status(job_id).stages_done:
                stage(job_id)
            continue
        stage(job_id)


def _settle(job_id: str) -> None:
    """What the worker would do with the job's messages after the deletion: every stage once more (a redelivered or
    next message), then whatever is left."""
    for stage in (stages.standardize_stage, stages.extract_stage, stages.embed_stage, stages.write_stage):
        stage(job_id)
    _run(job_id, None)


def _redis_keys_naming(client: redis.Redis, needle: str) -> list[str]:
    return [k.decode() for k in client.scan_iter(f"*{needle}*", count=1000)]


def _redis_text_holding(client: redis.Redis, needle: str, *names: str) -> list[str]:
    """Keys named by one of `names` (a space, a job id: Redis keys of a scope carry one) whose values (strings, hash
    fields, stream entries) hold `needle`."""
    found = []
    for raw in {k for name in names for k in client.scan_iter(f"*{name}*", count=1000)}:
        key = raw.decode()
        kind = client.type(raw).decode()
        if kind == "string":
            blob = client.get(raw) or b""
        elif kind == "hash":
            blob = b" ".join(k + b" " + v for k, v in client.hgetall(raw).items())  # type: ignore[union-attr]
        elif kind == "stream":
            blob = b" ".join(b" ".join(f.values()) for _, f in client.xrange(raw))  # type: ignore[union-attr]
        elif kind == "list":
            blob = b" ".join(client.lrange(raw, 0, -1))  # type: ignore[arg-type]
        else:
            continue
        if needle.encode() in blob.lower():
            found.append(key)
    return found


def _delete(kind: str, gql: GraphQL, space: str, admin: str) -> dict[str, Any]:
    if kind == "deleteSpace":
        return gql(operation("delete_space"), {"name": space}, key=admin)["deleteSpace"]
    variables: dict[str, Any] = {"user": USER}
    if kind == "forget-session":
        variables["session"] = "s1"
    elif kind == "forget-source":
        variables["sourceIds"] = ["chat-s1"]  # a record's id: every session of it
    return gql(operation("forget"), variables)["forget"]


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_deletion_at_any_stage_leaves_nothing_of_what_it_names(
    gql: GraphQL,
    driver: neo4j.Driver,
    space: str,
    settings: EngramSettings,
    stages_here: None,
    one_part_per_slice: None,
    kind: str,
    point: str,
) -> None:
    client = get_redis()
    job = gql(operation("ingest"), {"records": _records()})["ingest"]
    job_id = job["id"]
    _run(job_id, point)
    status = get_job_store().status(job_id)
    assert status.state in (JobState.QUEUED, JobState.RUNNING)
    if point == "write-part":  # caught between two parts: some of the job is in the graph, some is not
        assert 0 < status.done < status.total, status
    answer = _delete(kind, gql, space, settings.api.admin_key.get_secret_value())
    _settle(job_id)

    whole = kind in ("deleteSpace", "forget-user")
    if whole:
        assert answer["stoppedJobIds"] == [job_id]
        deleted = space if kind == "deleteSpace" else memory_space(space, USER)
        left = "MATCH (n) WHERE n.space = $d OR n.space STARTS WITH $d + '/' RETURN count(n) AS n"
        assert rows(driver, left, d=deleted) == [{"n": 0}]
        assert _redis_keys_naming(client, deleted) == []
        assert _redis_keys_naming(client, job_id) == []
    else:
        assert get_job_store().status(job_id).state is JobState.SUCCEEDED  # the rest of the job was written
        assert (
            rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s AND e.session = 's1' RETURN e.id", s=space)
            == []
        )
        kept = rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s RETURN count(e) AS n", s=space)
        assert kept == [{"n": 2 * TURNS}]  # the other sessions lose nothing
    found = rows(
        driver,
        "MATCH (n) WHERE n.space STARTS WITH $s "
        "AND any(k IN keys(n) WHERE n[k] IS :: STRING AND toLower(n[k]) CONTAINS $w) "
        "RETURN labels(n) AS labels, n.id AS id",
        s=space,
        w=SECRET,
    )
    assert found == []
    assert _redis_text_holding(client, SECRET, space, job_id) == []


def test_a_new_request_after_the_deletion_is_a_new_life(
    gql: GraphQL, driver: neo4j.Driver, space: str, stages_here: None
) -> None:
    first = gql(operation("ingest"), {"records": _records()})["ingest"]["id"]
    _run(first, "write")
    assert gql(operation("forget"), {"user": USER})["forget"]["stoppedJobIds"] == [first]
    gone = gql(operation("job"), {"id": first})["job"]  # the app polling it learns why it is gone
    assert gone["__typename"] == "NotFound" and "was stopped and removed" in gone["message"], gone
    unknown = gql(operation("job"), {"id": "0" * 32})["job"]
    assert unknown["message"] == f"no job {'0' * 32!r} in this space"
    again = gql(operation("ingest"), {"records": _records()})["ingest"]["id"]
    _settle(first)
    _run(again, None)
    assert get_job_store().status(again).state is JobState.SUCCEEDED
    episodes = rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s RETURN count(e) AS n", s=space)
    assert episodes == [{"n": 3 * TURNS}]


def test_a_purge_of_a_space_stops_its_users_jobs_between_write_parts(
    gql: GraphQL, driver: neo4j.Driver, space: str, stages_here: None, one_part_per_slice: None
) -> None:
    job_id = gql(operation("ingest"), {"records": _records()})["ingest"]["id"]
    _run(job_id, "write-part")
    written = rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s RETURN count(e) AS n", s=space)
    assert job_stops.purge_jobs(space) == [job_id]  # the space's name: its users' jobs are the space's
    _settle(job_id)
    status = get_job_store().status(job_id)
    assert status.state is JobState.FAILED and status.error == job_stops.PURGED_ERROR
    # nothing written after the purge (a purge deletes nothing: forget does)
    assert rows(driver, "MATCH (e:Episode) WHERE e.space STARTS WITH $s RETURN count(e) AS n", s=space) == written


def test_what_a_consolidation_wrote_after_its_space_was_deleted_goes_when_it_ends(
    gql: GraphQL, driver: neo4j.Driver, space: str, settings: EngramSettings
) -> None:
    from datetime import UTC, datetime

    from workers.tasks.consolidate import _sweep_if_deleted

    since = datetime.now(UTC)  # the run begins
    gql(operation("delete_space"), {"name": space}, key=settings.api.admin_key.get_secret_value())
    # the run, unfenced, writes a dimension into the deleted space after the deletion
    driver.execute_query("CREATE (:Dimension {space: $s, id: 'd1', label: 'zanzibarville trips'})", s=space)
    _sweep_if_deleted(space, since)  # as the run ends
    assert rows(driver, "MATCH (n {space: $s}) RETURN count(n) AS n", s=space) == [{"n": 0}]
    later = datetime.now(UTC)  # a run begun after the deletion is the space's new life: nothing is swept
    driver.execute_query("CREATE (:Dimension {space: $s, id: 'd2', label: 'new life'})", s=space)
    _sweep_if_deleted(space, later)
    assert rows(driver, "MATCH (n {space: $s}) RETURN count(n) AS n", s=space) == [{"n": 1}]
