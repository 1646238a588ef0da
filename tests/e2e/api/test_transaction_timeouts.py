"""Bounded reads: Neo4j stops a tenant's read at its transaction timeout and the caller is told so (GraphQL code
TIMEOUT, not an internal error); a pool that stays full is "busy"; the server bounds every other transaction."""

from __future__ import annotations

import time

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from graph.driver import create_driver
from graph.lookup import GraphReader
from graph.reads import DatabaseBusy, ReadTimedOut
from graph.recall.models import RecallRequest
from tests.support.graphql_client import GraphQL, operation

SLEEP_MS = 20_000  # far beyond the test's timeouts: a read that was not stopped fails the time bound


def test_a_slow_read_is_stopped_at_its_timeout(driver: neo4j.Driver, space: str) -> None:
    reader = GraphReader(driver, "neo4j", space, timeout_s=0.5)
    started = time.monotonic()
    with pytest.raises(ReadTimedOut, match=r"stopped this read \(system/sleep\) after 0.5 s"):
        reader.run("system/sleep", ms=SLEEP_MS)
    assert time.monotonic() - started < SLEEP_MS / 1000 / 2  # Neo4j checks timeouts every ~2 s
    assert GraphReader(driver, "neo4j", space, timeout_s=5).run("system/sleep", ms=10)[0]["slept"] == 10


def test_a_full_pool_answers_busy(settings: EngramSettings, space: str) -> None:
    tight = settings.neo4j.model_copy(update={"max_connection_pool_size": 1, "connection_acquisition_timeout_s": 0.5})
    with create_driver(tight) as driver, driver.session() as holder, holder.begin_transaction() as tx:
        tx.run("RETURN 1").consume()  # the pool's one connection stays with this open transaction
        with pytest.raises(DatabaseBusy):
            GraphReader(driver, "neo4j", space, timeout_s=5).run("system/sleep", ms=1)


def test_the_server_bounds_every_transaction(driver: neo4j.Driver) -> None:
    records, _, _ = driver.execute_query(
        "SHOW SETTINGS YIELD name, value WHERE name IN ['db.transaction.timeout', 'db.memory.transaction.max'] "
        "RETURN name, value"
    )
    configured = {r["name"]: r["value"] for r in records}
    assert configured == {"db.transaction.timeout": "15m", "db.memory.transaction.max": "512.00MiB"}


class SlowRecall:
    """A recall whose read outlasts the timeout: the read path and the timeout are the real ones."""

    def __init__(self, driver: neo4j.Driver) -> None:
        self._driver = driver

    def recall(self, request: RecallRequest) -> object:
        GraphReader(self._driver, "neo4j", request.space, timeout_s=0.5).run("system/sleep", ms=SLEEP_MS)
        raise AssertionError("the read was not stopped")


def test_the_api_answers_a_timed_out_read_with_a_clear_error(
    gql: GraphQL, settings: EngramSettings, services: ApiServices
) -> None:
    slow = ApiServices(**{**services.__dict__, "recall": SlowRecall(services.driver)})
    with TestClient(create_app(settings, slow)) as client:
        response = GraphQL(client, gql.key).raw(operation("recall"), {"query": "anything"})
        metrics = client.get(
            "/metrics", headers={"Authorization": f"Bearer {settings.api.admin_key.get_secret_value()}"}
        )
    assert response.status_code == 200
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "TIMEOUT"
    assert "stopped this read" in error["message"] and "after 0.5 s" in error["message"]
    assert "Internal error" not in error["message"] and "Traceback" not in response.text
    assert 'engram_api_errors_total{code="TIMEOUT"}' in metrics.text
