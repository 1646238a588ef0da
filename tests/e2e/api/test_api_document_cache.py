"""Operation documents are parsed and validated once and the verdict reused (app/api/schema/build.py): a repeated
document skips both, a refused one stays refused, and a schema with other limits keeps its own verdicts."""

from __future__ import annotations

from collections.abc import Iterator

import neo4j
import pytest
from fastapi.testclient import TestClient
from strawberry.extensions.validation_cache import _get_validate_cache

from app.api.schema.build import DOCUMENT_CACHE_SIZE
from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation

# Depth 5 under the default limit (10), over a limit of 4.
DEEP = '{ episode(id: "x") { ... on Episode { source { episodes { edges { node { source { id } } } } } } } }'


def _validations_reused() -> int:
    # Strawberry's shared LRU behind ValidationCache (one per maxsize): its hits are validations skipped.
    return int(_get_validate_cache(DOCUMENT_CACHE_SIZE).cache_info().hits)  # type: ignore[attr-defined]


@pytest.fixture()
def shallow(settings: EngramSettings, services: ApiServices) -> Iterator[TestClient]:
    api = settings.api.model_copy(update={"max_query_depth": 4})
    with TestClient(create_app(settings.model_copy(update={"api": api}), services)) as client:
        yield client


def test_a_repeated_document_is_validated_once(gql: GraphQL) -> None:
    stats = operation("stats")
    gql(stats)
    before = _validations_reused()
    for _ in range(3):
        assert gql(stats)["stats"]["episodes"] == 0
    assert _validations_reused() - before == 3


def test_each_schema_keeps_its_own_verdict_and_a_refusal_stays_a_refusal(
    gql: GraphQL, shallow: TestClient, driver: neo4j.Driver, space: str
) -> None:
    lenient = gql.raw(DEEP).json().get("errors", [])
    assert not any("depth" in error["message"] for error in lenient)  # the default limit allows it
    strict = GraphQL(shallow, issue_key(driver, f"{space}-shallow"))
    try:
        for _ in range(3):  # validated once, refused every time
            assert "exceeds maximum operation depth" in strict.errors(DEEP)[0]["message"]
    finally:
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=f"{space}-shallow")
