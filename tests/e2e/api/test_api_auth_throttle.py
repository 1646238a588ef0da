"""Failed authentications are throttled per client address and per presented key (429 with Retry-After after a
burst, wrong admin keys included, the right key refused too while an address is throttled, so guessing cannot go
on between successes); the admin key has its own rate limit."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.support.graphql_client import GraphQL, operation

BURST = 5


def _address() -> str:
    return f"10.2.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"


@pytest.fixture()
def settings_tight(settings: EngramSettings) -> EngramSettings:
    api = settings.api.model_copy(update={"auth_failures_per_minute": BURST, "admin_rate_limit_per_minute": 4})
    return settings.model_copy(update={"api": api})


@pytest.fixture()
def client(settings_tight: EngramSettings, services: ApiServices) -> Iterator[TestClient]:
    with TestClient(create_app(settings_tight, services), client=(_address(), 4000)) as c:
        yield c


def _wrong_key() -> str:
    return f"egk_{uuid.uuid4().hex[:16]}.{'A' * 43}"


def _refused_429(response: object) -> bool:
    status = getattr(response, "status_code", 0)
    if status != 429:
        return False
    headers = getattr(response, "headers", {})
    error = response.json()["errors"][0]  # type: ignore[attr-defined]
    # A sliding minute: failures of this minute still count for part of the next, so the wait may pass 60 s.
    return error["extensions"]["code"] == "RATE_LIMITED" and 0 < int(headers["retry-after"]) <= 120


def test_wrong_keys_from_one_address_are_throttled(client: TestClient, gql: GraphQL) -> None:
    probe = GraphQL(client, None)
    answers = [probe.raw(operation("stats"), key=_wrong_key()).status_code for _ in range(BURST)]
    assert answers == [401] * BURST
    assert _refused_429(probe.raw(operation("stats"), key=_wrong_key()))
    # While the address is throttled even a right key is refused: a guesser learns nothing from it.
    assert _refused_429(probe.raw(operation("stats"), key=gql.key))
    # Another address is not.
    assert GraphQL(gql.http, gql.key)(operation("stats"))["stats"]["episodes"] == 0


def test_wrong_admin_keys_count_as_failures(
    client: TestClient, settings_tight: EngramSettings, services: ApiServices
) -> None:
    # This wrong key is the same in every run: failures of a run in the last two minutes would still count.
    for key in services.redis.scan_iter("engram:authfail:key:*"):
        services.redis.delete(key)
    probe = GraphQL(client, None)
    wrong_admin = settings_tight.api.admin_key.get_secret_value() + "x"
    answers = [probe.raw(operation("create_space"), {"name": "x"}, key=wrong_admin).status_code for _ in range(BURST)]
    assert answers == [401] * BURST
    assert _refused_429(probe.raw(operation("create_space"), {"name": "x"}, key=wrong_admin))


def test_one_wrong_key_from_many_addresses_is_throttled(client: TestClient) -> None:
    key = _wrong_key()
    statuses = []
    for _ in range(BURST + 1):
        client._transport.client = (_address(), 4000)  # type: ignore[attr-defined]  # each request from elsewhere
        statuses.append(GraphQL(client, key).raw(operation("stats")).status_code)
    assert statuses == [401] * BURST + [429]


def test_the_admin_key_is_rate_limited(
    client: TestClient, settings_tight: EngramSettings, services: ApiServices
) -> None:
    # The admin key's count is one for the whole service: what earlier tests sent in the last two minutes counts in a
    # sliding window, so it starts from nothing here.
    for key in services.redis.scan_iter("engram:rate-admin:*"):
        services.redis.delete(key)
    admin = settings_tight.api.admin_key.get_secret_value()
    probe = GraphQL(client, admin)
    statuses = [probe.raw(operation("create_space"), {"name": "Not A Slug!"}).status_code for _ in range(6)]
    # 4 in any minute: the first 4 pass, the next 2 are refused.
    assert statuses == [200, 200, 200, 200, 429, 429]
