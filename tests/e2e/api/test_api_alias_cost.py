"""Aliases do not multiply a request past the rate limit: every root field of an operation (aliased, or in a fragment
at the root) counts as one request against the key's limit, over HTTP and on WebSockets alike."""

from __future__ import annotations

import neo4j
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL

PER_MINUTE = 12
TEN_STATS = "{ " + " ".join(f"a{i}: stats {{ episodes }}" for i in range(10)) + " }"


def test_aliased_root_fields_count_as_that_many_requests(
    settings: EngramSettings, services: ApiServices, driver: neo4j.Driver, space: str
) -> None:
    limited = settings.model_copy(update={"api": settings.api.model_copy(update={"rate_limit_per_minute": PER_MINUTE})})
    with TestClient(create_app(limited, ApiServices(**{**services.__dict__, "settings": limited}))) as client:
        gql = GraphQL(client, issue_key(driver, space))
        first = gql.raw(TEN_STATS).json()
        second = gql.raw(TEN_STATS).json()
        fragment = gql.raw("{ ...F } fragment F on Query { b: stats { episodes } c: stats { episodes } }")
    assert not first.get("errors") and len(first["data"]) == 10
    # 10 counted, then 10 more would pass 12: refused before anything runs. The limit is a sliding minute: the other 9
    # fields fit once the 11 counted weigh at most 3, 73% into the next minute (44 to 104 s, by when in this one).
    error = second["errors"][0]
    assert error["extensions"]["code"] == "RATE_LIMITED" and 40 < error["extensions"]["retryAfter"] <= 110
    assert "10 root fields" in error["message"] and second.get("data") is None
    # The refused request used one of the limit (its admission), not its other 9 fields: 11 of 12. The fragment's two
    # root fields count as two, so it is refused too (as one it would fit).
    assert fragment.status_code == 429 or fragment.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
