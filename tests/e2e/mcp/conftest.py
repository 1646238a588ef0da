"""The MCP tests talk to the stack's running API (started by the test command), as an agent would."""

from __future__ import annotations

import httpx
import neo4j
import pytest

from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key


@pytest.fixture()
def api_base(settings: EngramSettings) -> str:
    base = f"http://{settings.api.host}:{settings.api.port}"
    assert httpx.get(f"{base}/healthz", timeout=10).json() == {"status": "ok"}, "the stack's API is not running"
    return base


@pytest.fixture()
def space_key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)
