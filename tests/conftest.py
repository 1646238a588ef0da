"""Fixtures shared by all tests: the real services started by the test command (infra/test.sh), its own stack on the
test ports and state folder, which it points the settings at through the environment."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import neo4j
import pytest

from engram.settings import EngramSettings, get_settings
from graph.driver import get_driver


@pytest.fixture(scope="session")
def settings() -> EngramSettings:
    return get_settings()


@pytest.fixture(scope="session")
def driver() -> neo4j.Driver:
    return get_driver()


@pytest.fixture()
def space(driver: neo4j.Driver) -> Iterator[str]:
    """A fresh memory space for one test; everything in it is removed afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)
