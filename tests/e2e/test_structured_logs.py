"""Structured logs: a request's correlation id (its X-Request-ID) is answered back and carried by the JSON log lines
of the API that served it and of the worker that ran the job it queued (the stack's own log files)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation


@pytest.fixture()
def server(settings: EngramSettings, driver: neo4j.Driver, space: str) -> Iterator[GraphQL]:
    with httpx.Client(base_url=f"http://{settings.api.host}:{settings.api.port}", timeout=60) as http:
        yield GraphQL(http, issue_key(driver, space))


def json_lines(path: Path, correlation: str) -> list[dict[str, Any]]:
    """The JSON lines of a log file that carry the correlation id (every line must be JSON)."""
    lines = [line for line in path.read_text(errors="replace").splitlines() if correlation in line]
    return [entry for entry in map(json.loads, lines) if entry["correlation_id"] == correlation]


def test_a_request_id_reaches_the_api_log_and_the_worker_log_of_its_job(
    server: GraphQL, settings: EngramSettings, conversation: dict[str, Any]
) -> None:
    assert settings.log_format == "json"
    correlation = f"test-{uuid.uuid4().hex}"
    assert server.key is not None
    response = server.http.post(  # type: ignore[call-arg]
        "/graphql",
        json={"query": operation("ingest"), "variables": {"records": [conversation]}},
        headers={"Authorization": f"Bearer {server.key}", "X-Request-ID": correlation},
    )
    assert response.headers["x-request-id"] == correlation
    job_id = response.json()["data"]["ingest"]["id"]
    server.wait_for_job(job_id)

    api = json_lines(settings.state_dir / "api" / "api.log", correlation)
    messages = [entry["message"] for entry in api]
    assert any(job_id in m and "queued" in m for m in messages), messages
    assert any(m.startswith("POST /graphql mutation ingest 200") for m in messages), messages
    assert all(entry["logger"].startswith("engram.api") and entry["level"] == "INFO" for entry in api)

    worker = json_lines(settings.state_dir / "worker" / "worker.log", correlation)
    done = {m for m in (entry["message"] for entry in worker) if job_id in m and " done in " in m}
    # Every stage of the chain carries the id, though each was queued by the worker as the previous one ended.
    stages = ("standardize", "extract", "embed", "write", "consolidate")
    assert {m.split("stage ")[1].split(" done")[0] for m in done} == set(stages), done
    # Celery's own "Task ...[id] received" line, logged as the message arrives (before any task runs), too.
    received = [e["message"] for e in worker if e["logger"] == "celery.worker.strategy" and "received" in e["message"]]
    assert {m.split("[")[0].removeprefix("Task engram.ingest.") for m in received} >= set(stages), received


def test_a_request_without_an_id_gets_one_and_a_bad_id_is_replaced(server: GraphQL) -> None:
    first = server.raw(operation("stats"))
    second = server.raw(operation("stats"))
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    assert len(first.headers["x-request-id"]) == 32
    hostile = "x" * 65 + '\n{"level": "ERROR"}'
    assert server.http.post(  # type: ignore[call-arg]
        "/graphql", json={"query": operation("stats")}, headers={"X-Request-ID": hostile.replace("\n", " ")}
    ).headers["x-request-id"] != hostile.replace("\n", " ")
