"""The real app in-process (its lifespan runs, so it talks to the real Neo4j, Redis and worker), one per test
session sharing one set of services; a key per test space."""

from __future__ import annotations

from collections.abc import Iterator

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices, close_services, create_services
from engram.settings import EngramSettings
from graph.api_keys import ApiKeyStore
from tests.support.graphql_client import GraphQL


@pytest.fixture(scope="session")
def services(settings: EngramSettings) -> Iterator[ApiServices]:
    created = create_services(settings)
    yield created
    close_services(created)


@pytest.fixture(scope="session")
def http(settings: EngramSettings, services: ApiServices) -> Iterator[TestClient]:
    with TestClient(create_app(settings, services)) as client:
        yield client


def issue_key(driver: neo4j.Driver, space: str) -> str:
    store = ApiKeyStore(driver, "neo4j")
    store.create_space(space)
    return store.issue(space, "test").secret


@pytest.fixture()
def gql(http: TestClient, driver: neo4j.Driver, space: str) -> GraphQL:
    """A client whose key opens the test's fresh space."""
    return GraphQL(http, issue_key(driver, space))
