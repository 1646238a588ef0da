"""A read over Neo4j's per-transaction memory cap (db.memory.transaction.max, 512 MiB in infra/neo4j/conf) fails
once, at once, with its own error: the driver and the recall loop retry what the server calls transient, and this
would fail the same way every time; the API tells the client so (QUERY_TOO_LARGE), not an internal error."""

from __future__ import annotations

import time

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from graph.lookup import GraphReader
from graph.reads import TransactionTooLarge
from graph.recall.models import RecallRequest
from tests.support.graphql_client import GraphQL, operation

OVER_CAP_MB = 1_000  # twice the cap


def test_a_read_over_the_memory_cap_fails_at_once_and_says_why(driver: neo4j.Driver, space: str) -> None:
    reader = GraphReader(driver, "neo4j", space, timeout_s=60)
    started = time.monotonic()
    with pytest.raises(TransactionTooLarge, match=r"system/hold_memory.*db\.memory\.transaction\.max"):
        reader.run("system/hold_memory", megabytes=OVER_CAP_MB)
    # Retried, it would run for the driver's 30 s of retries; one attempt takes well under a second.
    assert time.monotonic() - started < 10
    assert reader.run("system/hold_memory", megabytes=8)[0]["megabytes"] == 8  # under the cap it runs


class GreedyRecall:
    """A recall whose read goes over the memory cap: the read path and the cap are the real ones."""

    def __init__(self, driver: neo4j.Driver) -> None:
        self._driver = driver

    def recall(self, request: RecallRequest) -> object:
        GraphReader(self._driver, "neo4j", request.space, timeout_s=60).run("system/hold_memory", megabytes=OVER_CAP_MB)
        raise AssertionError("the read was not stopped")


def test_the_api_answers_a_read_over_the_memory_cap_with_its_own_code(
    gql: GraphQL, settings: EngramSettings, services: ApiServices
) -> None:
    greedy = ApiServices(**{**services.__dict__, "recall": GreedyRecall(services.driver)})
    with TestClient(create_app(settings, greedy)) as client:
        response = GraphQL(client, gql.key).raw(operation("recall"), {"query": "anything"})
        metrics = client.get(
            "/metrics", headers={"Authorization": f"Bearer {settings.api.admin_key.get_secret_value()}"}
        )
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "QUERY_TOO_LARGE", error
    assert "memory" in error["message"] and "ask for less" in error["message"]
    assert "Internal error" not in error["message"] and "Traceback" not in response.text
    assert 'engram_api_errors_total{code="QUERY_TOO_LARGE"}' in metrics.text
