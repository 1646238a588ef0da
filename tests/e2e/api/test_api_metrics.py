"""/metrics: Prometheus text that moves with the traffic, for the metrics or admin key only, with no label that
names a tenant."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.support.graphql_client import GraphQL, operation

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(http: TestClient, key: str) -> Samples:
    response = http.get("/metrics", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum over the samples of `name` whose labels include `labels` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(v for (n, got), v in samples.items() if n == name and wanted <= got)


@pytest.fixture()
def admin_key(settings: EngramSettings) -> str:
    key = settings.api.admin_key.get_secret_value()
    assert key, "the test stack sets ENGRAM_API_ADMIN_KEY"
    return key


def test_metrics_move_with_an_ingest_a_recall_and_errors(
    gql: GraphQL, http: TestClient, admin_key: str, conversation: dict[str, Any]
) -> None:
    before = scrape(http, admin_key)
    gql.ingest([conversation])
    recall = gql(operation("recall"), {"query": "What did Melanie paint?"})["recall"]
    assert recall["__typename"] == "Recall"
    anonymous = http.post("/graphql", json={"query": operation("stats")})
    assert anonymous.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    assert gql.errors("{ stats { noSuchField } }")  # a validation error
    after = scrape(http, admin_key)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    recall_requests = {"route": "/graphql", "operation": "query", "field": "recall", "status": "200"}
    assert moved("engram_api_request_seconds_count", **recall_requests) == 1
    assert moved("engram_api_request_seconds_sum", **recall_requests) > 0
    ingests = {"route": "/graphql", "operation": "mutation", "field": "ingest", "status": "200"}
    assert moved("engram_api_request_seconds_count", **ingests) == 1
    assert moved("engram_api_request_seconds_count", field="job") >= 1  # gql.ingest polls the job
    assert moved("engram_recall_seconds_count") == 1
    assert moved("engram_api_errors_total", code="UNAUTHENTICATED") == 1
    assert moved("engram_api_errors_total", code="GRAPHQL_VALIDATION_FAILED") == 1
    # Read from Redis at the scrape: the finished job is counted, the queues and Redis's memory reported.
    assert value(after, "engram_jobs", state="succeeded", stage="consolidate") >= 1
    assert moved("engram_jobs", state="succeeded") >= 1
    assert {"cpu", "gpu"} <= {dict(labels)["queue"] for (n, labels) in after if n == "engram_queue_depth"}
    assert value(after, "engram_redis_up") == 1
    assert 0 < value(after, "engram_redis_used_memory_bytes") < value(after, "engram_redis_maxmemory_bytes")
    # No label anywhere names the tenant.
    assert gql.key is not None
    space = gql(operation("stats"))["stats"]["space"]
    assert not any(space in v for (_, labels) in after for _, v in labels)


def test_metrics_refuse_a_tenant_key_and_no_key(gql: GraphQL, http: TestClient) -> None:
    assert gql.key is not None
    tenant = http.get("/metrics", headers={"Authorization": f"Bearer {gql.key}"})
    assert tenant.status_code == 403 and tenant.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert "engram_jobs" not in tenant.text
    anonymous = http.get("/metrics")
    assert anonymous.status_code == 401 and "engram_jobs" not in anonymous.text


def test_a_scrape_only_key_reads_metrics_and_nothing_else(
    gql: GraphQL, settings: EngramSettings, services: ApiServices
) -> None:
    api = settings.api.model_copy(update={"metrics_key": SecretStr("scrape-only-key"), "admin_key": SecretStr("")})
    with TestClient(create_app(settings.model_copy(update={"api": api}), services)) as client:
        assert any(name == "engram_queue_depth" for name, _ in scrape(client, "scrape-only-key"))
        refused = GraphQL(client, "scrape-only-key").raw(operation("stats"))
        assert refused.status_code == 401  # not a key of any space
    off = settings.api.model_copy(update={"metrics_key": SecretStr(""), "admin_key": SecretStr("")})
    with TestClient(create_app(settings.model_copy(update={"api": off}), services)) as client:
        assert client.get("/metrics", headers={"Authorization": "Bearer anything"}).status_code == 404
