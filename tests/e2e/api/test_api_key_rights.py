"""API keys carry a role (reader < writer < owner) and know the key that minted them: a key mints no key above its
own role, revokes no key above it nor the keys it was minted from, and a space holds a capped number of active keys,
minted under their own (tighter) rate limit. Revoking a key revokes what it minted, unless a key retires itself."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graph_queries import label_counts
from tests.support.graphql_client import GraphQL, operation

MINT = (
    "mutation($label: String!, $role: ApiKeyRole) "
    "{ createApiKey(label: $label, role: $role) { secret key { id role mintedBy } } }"
)
REVOKE = "mutation($id: ID!) { revokeApiKey(id: $id) { __typename ... on ApiKey { id revokedAt } } }"
KEYS = "{ apiKeys { id role revokedAt } }"


def _app(settings: EngramSettings, services: ApiServices, **limits: int) -> TestClient:
    tightened = settings.model_copy(update={"api": settings.api.model_copy(update=limits)})
    app = create_app(tightened, ApiServices(**{**services.__dict__, "settings": tightened}))
    return TestClient(app, client=(f"10.1.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}", 4000))


@pytest.fixture()
def tight(settings: EngramSettings, services: ApiServices) -> Iterator[TestClient]:
    """The app with a cap of 4 active keys per space and 3 mints per space an hour."""
    with _app(settings, services, max_active_keys_per_space=4, key_mints_per_hour=3) as client:
        yield client


def _mint(gql: GraphQL, key: str, label: str, role: str | None = None) -> dict[str, object]:
    response = gql.raw(MINT, {"label": label, "role": role}, key=key).json()
    return response  # type: ignore[no-any-return]


def test_a_key_mints_no_key_above_its_role(gql: GraphQL, driver: neo4j.Driver, space: str) -> None:
    owner = gql.key
    assert owner
    writer = _mint(gql, owner, "writer", "WRITER")["data"]["createApiKey"]  # type: ignore[index]
    assert writer["key"]["role"] == "WRITER" and writer["key"]["mintedBy"]
    refused = _mint(gql, writer["secret"], "escalate", "OWNER")
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"  # type: ignore[index]
    assert "owner" in refused["errors"][0]["message"].lower()  # type: ignore[index]
    # Without a role, a new key has its minter's.
    same = _mint(gql, writer["secret"], "same")["data"]["createApiKey"]  # type: ignore[index]
    assert same["key"]["role"] == "WRITER" and same["key"]["mintedBy"] == writer["key"]["id"]
    reader = _mint(gql, writer["secret"], "reader", "READER")["data"]["createApiKey"]  # type: ignore[index]
    # A reader reads, and writes nothing.
    assert gql(operation("stats"), key=reader["secret"])["stats"]["episodes"] == 0
    document = {"type": "document", "id": "d", "text": "x"}
    ingest = gql.raw(operation("ingest"), {"records": [document]}, key=reader["secret"])
    assert ingest.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert set(label_counts(driver, space)) <= {"Space", "ApiKey"}
    roles = sorted(k["role"] for k in gql(KEYS)["apiKeys"])
    assert roles == ["OWNER", "READER", "WRITER", "WRITER"]


def test_a_leaked_key_cannot_revoke_the_keys_above_it(gql: GraphQL) -> None:
    owner = gql.key
    assert owner
    owner_id = gql(KEYS)["apiKeys"][0]["id"]
    leaked = _mint(gql, owner, "leaked", "OWNER")["data"]["createApiKey"]  # type: ignore[index]
    sibling = _mint(gql, owner, "sibling", "WRITER")["data"]["createApiKey"]  # type: ignore[index]
    child = _mint(gql, leaked["secret"], "child", "WRITER")["data"]["createApiKey"]  # type: ignore[index]
    # The key a key was minted from is out of its reach, whatever its role.
    refused = gql.raw(REVOKE, {"id": owner_id}, key=leaked["secret"]).json()
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    refused = gql.raw(REVOKE, {"id": owner_id}, key=child["secret"]).json()
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    # A writer revokes neither an owner nor a sibling it did not mint.
    refused = gql.raw(REVOKE, {"id": sibling["key"]["id"]}, key=child["secret"]).json()
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert gql(operation("stats"))["stats"]["episodes"] == 0  # the owner's key still works
    # The owner revokes the leaked key, and with it the key the leaked one minted.
    revoked = gql(REVOKE, {"id": leaked["key"]["id"]})["revokeApiKey"]
    assert revoked["__typename"] == "ApiKey" and revoked["revokedAt"]
    assert gql.raw(operation("stats"), key=child["secret"]).status_code == 401
    assert gql(operation("stats"), key=sibling["secret"])["stats"]["episodes"] == 0


def test_a_key_that_retires_itself_leaves_its_successor_working(gql: GraphQL) -> None:
    """Rotation: the old key mints the new one, then revokes itself."""
    old_id = gql(KEYS)["apiKeys"][0]["id"]
    new = _mint(gql, gql.key or "", "rotated")["data"]["createApiKey"]  # type: ignore[index]
    assert gql(REVOKE, {"id": old_id})["revokeApiKey"]["__typename"] == "ApiKey"
    assert gql.raw(operation("stats")).status_code == 401
    assert gql(operation("stats"), key=new["secret"])["stats"]["episodes"] == 0


def test_active_keys_are_capped_and_minting_has_its_own_rate_limit(
    tight: TestClient, driver: neo4j.Driver, space: str
) -> None:
    gql = GraphQL(tight, issue_key(driver, space))
    minted = [_mint(gql, gql.key or "", f"k{i}")["data"]["createApiKey"] for i in range(3)]  # type: ignore[index]
    assert len(gql(KEYS)["apiKeys"]) == 4
    # The fourth mint this hour is refused by the mint limit, before the cap is even asked.
    limited = gql.raw(MINT, {"label": "k4", "role": None})
    assert limited.status_code == 200
    error = limited.json()["errors"][0]
    # A sliding hour: the mints of this hour still count for part of the next, so the wait may pass an hour.
    assert error["extensions"]["code"] == "RATE_LIMITED" and 0 < error["extensions"]["retryAfter"] <= 2 * 3600
    # Freeing a slot does not lift the hourly mint limit; the cap stands on its own (4 active keys).
    assert gql(REVOKE, {"id": minted[0]["key"]["id"]})["revokeApiKey"]["__typename"] == "ApiKey"
    assert len([k for k in gql(KEYS)["apiKeys"] if not k["revokedAt"]]) == 3


def test_the_active_key_cap_refuses_a_mint(
    settings: EngramSettings, services: ApiServices, driver: neo4j.Driver, space: str
) -> None:
    with _app(settings, services, max_active_keys_per_space=2, key_mints_per_hour=100) as client:
        gql = GraphQL(client, issue_key(driver, space))
        _mint(gql, gql.key or "", "second")
        refused = gql.raw(MINT, {"label": "third", "role": None}).json()
        assert len(gql(KEYS)["apiKeys"]) == 2
    assert refused["errors"][0]["extensions"]["code"] == "KEY_LIMIT"
    assert "2 active keys" in refused["errors"][0]["message"]
    assert refused["data"] is None
