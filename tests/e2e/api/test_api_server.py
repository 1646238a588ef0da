"""The API as deployed: the uvicorn server started by the stack, over loopback HTTP and graphql-transport-ws."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import neo4j
import pytest
import redis
import websockets
from prometheus_client.parser import text_string_to_metric_families

from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation
from tests.support.jobs import wait_for_job
from workers.jobs import JobState


@pytest.fixture()
def server(settings: EngramSettings, driver: neo4j.Driver, space: str) -> Iterator[GraphQL]:
    base = f"http://{settings.api.host}:{settings.api.port}"
    with httpx.Client(base_url=base, timeout=60) as http:
        assert http.get("/healthz").json() == {"status": "ok"}, "the stack's API is not running (infra/api.sh)"
        yield GraphQL(http, issue_key(driver, space))


async def _follow(url: str, key: str, job_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    async with websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        subscribe = {"query": operation("job_progress"), "variables": {"id": job_id}}
        await ws.send(json.dumps({"id": str(uuid.uuid4()), "type": "subscribe", "payload": subscribe}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=300))
            if message["type"] == "complete":
                return events
            assert message["type"] == "next" and not message["payload"].get("errors"), message
            events.append(message["payload"]["data"]["jobProgress"])


def test_ingest_follow_progress_over_websocket_and_recall(
    server: GraphQL, settings: EngramSettings, conversation: dict[str, Any]
) -> None:
    job = server(operation("ingest"), {"records": [conversation]})["ingest"]
    url = f"ws://{settings.api.host}:{settings.api.port}/graphql"
    assert server.key is not None
    events = asyncio.run(_follow(url, server.key, job["id"]))
    assert events[-1]["state"] == "SUCCEEDED" and events[-1]["fraction"] == 1.0
    fractions = [e["fraction"] for e in events]
    assert fractions == sorted(fractions)  # progress never goes backwards
    assert events[-1]["counts"]["episodes"] == 6
    recall = server(operation("recall"), {"query": "What did Melanie paint?"})["recall"]
    assert any("sunrise" in item["text"] for item in recall["items"][:3])


def test_export_vectors_pages_a_memory_with_its_vectors(server: GraphQL, conversation: dict[str, Any]) -> None:
    """The exportVectors operation: the whole memory in one page here (a header, then each node with its vector)."""
    job = server(operation("ingest"), {"records": [conversation]})["ingest"]
    assert wait_for_job(job["id"], timeout_s=300).state is JobState.SUCCEEDED
    page = server(operation("export_vectors"), {"first": 1000})["exportVectors"]
    assert page["endCursor"] is None and page["nodes"] == page["totalNodes"] > 0
    header, *nodes = [json.loads(line) for line in page["jsonl"].splitlines()]
    assert header["engram_vectors_export"] == 1 and header["dimensions"] == 384
    assert len(nodes) == page["nodes"]
    vectors = [base64.b64decode(node["embedding"]) for node in nodes if node.get("embedding")]
    assert vectors and all(len(vector) == 384 * 4 for vector in vectors)
    assert {node["label"] for node in nodes} >= {"Source", "Episode", "Proposition", "Concept"}


def test_the_server_refuses_a_wrong_key_and_stays_up(server: GraphQL) -> None:
    response = server.raw(operation("stats"), key="egk_0123456789abcdef.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")
    assert response.status_code == 401
    assert server(operation("stats"))["stats"]["episodes"] == 0


def test_doctor_checks_every_part_including_the_api(settings: EngramSettings) -> None:
    from app.cli.doctor import all_checks

    results = [check() for check in all_checks(settings)]
    assert {"Redis", "Celery worker", "GraphQL API", "Neo4j Browser"} <= {r.name for r in results}
    failed = [f"{r.name}: {r.detail}" for r in results if not r.ok]
    assert not failed, failed


def _fresh_connection_stats(base: str, key: str) -> None:
    """One request on a connection of its own, so that successive ones reach either API process."""
    response = httpx.post(
        f"{base}/graphql", json={"query": "{ stats { episodes } }"}, headers={"Authorization": f"Bearer {key}"}
    )
    assert response.status_code == 200 and response.json()["data"]["stats"]["episodes"] == 0


def _stats_requests(base: str, admin_key: str) -> float:
    text = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {admin_key}"}).text
    families = {family.name: family for family in text_string_to_metric_families(text)}
    assert "process_cpu_seconds" not in families  # one process's figures are left out of the processes' sum
    wanted = {"field": "stats", "operation": "query", "route": "/graphql", "status": "200"}
    return sum(
        sample.value
        for sample in families["engram_api_request_seconds"].samples
        if sample.name.endswith("_count") and sample.labels == wanted
    )


def test_metrics_sum_the_requests_of_every_api_process(settings: EngramSettings, server: GraphQL) -> None:
    assert settings.api.processes > 1, "the stack's API runs one process: nothing to sum"
    admin_key = settings.api.admin_key.get_secret_value()
    base = f"http://{settings.api.host}:{settings.api.port}"
    assert server.key is not None
    before = _stats_requests(base, admin_key)
    for _ in range(30):
        _fresh_connection_stats(base, server.key)
    # Each scrape is answered by whichever process takes its connection: every one must count all 30.
    seen = [_stats_requests(base, admin_key) - before for _ in range(6)]
    assert all(count >= 30 for count in seen), seen


def test_the_socket_cap_holds_across_api_processes(settings: EngramSettings, server: GraphQL) -> None:
    assert settings.api.processes > 1, "the stack's API runs one process: nothing to share"
    url = f"ws://{settings.api.host}:{settings.api.port}/graphql"
    cap = settings.api.ws_max_connections_per_key
    assert server.key is not None
    key = server.key

    async def scenario() -> tuple[list[str], int]:
        sockets = []
        answers = []
        for _ in range(cap + 1):  # each socket its own connection: the processes share them out
            ws = await websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")])
            await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key}}))
            try:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"])
            except websockets.ConnectionClosed as closed:
                answers.append(f"closed {closed.rcvd.code if closed.rcvd else None}")
            sockets.append(ws)
        await sockets[0].close()
        await asyncio.sleep(0.3)
        again = await websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")])
        await again.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key}}))
        reopened = json.loads(await asyncio.wait_for(again.recv(), timeout=10))["type"] == "connection_ack"
        for ws in [*sockets, again]:
            await ws.close()
        return answers, int(reopened)

    answers, reopened = asyncio.run(scenario())
    assert answers == ["connection_ack"] * cap + ["closed 4429"], answers
    assert reopened == 1  # a closed socket gives its place back to the key


def test_readiness_names_each_dependency(settings: EngramSettings) -> None:
    """/readyz answers 200 with Neo4j, Redis and the model each "ok" and recall warm on the running stack; /healthz
    stays liveness."""
    base = f"http://{settings.api.host}:{settings.api.port}"
    ready = httpx.get(f"{base}/readyz", timeout=30)
    assert ready.status_code == 200
    body = ready.json()
    assert body["status"] == "ready"
    assert body["checks"] == {"neo4j": "ok", "redis": "ok", "model": "ok", "warm": "ok"}
    assert body["workers"]["alive"] >= 1  # told beside the checks, never one of them (recall needs no worker)


def test_readiness_reports_a_dependency_that_does_not_answer(services: ApiServices) -> None:
    """The same check against a Redis where nothing listens names it; Neo4j and the model still answer."""
    from app.api.server import readiness

    unreachable = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=2)
    checks = readiness(dataclasses.replace(services, redis=unreachable))
    assert checks["neo4j"] == "ok" and checks["model"] == "ok"
    assert checks["redis"].startswith("ConnectionError")
    assert readiness(services) == {"neo4j": "ok", "redis": "ok", "model": "ok"}
