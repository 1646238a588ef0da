"""graphql-transport-ws as a hostile client uses it: every operation on a socket is authenticated, limited and
served from its own context, like an HTTP request. A real uvicorn server (in this process, with small limits)
over loopback, the real Neo4j, Redis and worker."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection

from app.api import security
from app.api.metrics import REGISTRY
from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from graph.api_keys import ApiKeyStore
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation
from tests.support.ports import free_port
from workers.jobs import JobStore

LIMITS = {
    "max_body_bytes": 1_000,
    "rate_limit_per_minute": 12,
    "ws_init_timeout_s": 1.0,
    "ws_max_connections_per_key": 3,
    "ws_max_operations_in_flight": 2,
    "ws_reauth_interval_s": 0.5,
}
STATS = "{ stats { episodes } }"
WAIT_S = 5.0


@pytest.fixture(scope="module")
def ws_url(settings: EngramSettings, services: ApiServices) -> Iterator[str]:
    """A server with small limits, sharing the test session's services."""
    limited = settings.model_copy(update={"api": settings.api.model_copy(update=LIMITS)})
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(limited, services), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the limited API server did not start"
        time.sleep(0.05)
    yield f"ws://127.0.0.1:{port}/graphql"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture()
def key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)


async def _connect(url: str, key: str | None, init: bool = True) -> ClientConnection:
    ws = await websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")])
    if init:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key} if key else {}}))
    return ws


async def _acked(url: str, key: str) -> ClientConnection:
    ws = await _connect(url, key)
    message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
    assert message["type"] == "connection_ack", message
    return ws


async def _subscribe(ws: ClientConnection, query: str, variables: dict[str, Any] | None = None) -> str:
    op_id = uuid.uuid4().hex
    await ws.send(json.dumps({"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}))
    return op_id


async def _run(ws: ClientConnection, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    """One query or mutation: its `next` payload, or `{"errors": ...}` from an `error` message."""
    op_id = await _subscribe(ws, query, variables)
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
        if message.get("id") != op_id:
            continue
        if message["type"] == "error":
            return {"errors": message["payload"]}
        assert message["type"] == "next", message
        payload: dict[str, Any] = message["payload"]
        return payload


async def _closed(ws: ClientConnection, timeout_s: float = WAIT_S) -> tuple[int, str]:
    """The close code and reason, once the server closes the socket (fails after `timeout_s`)."""
    try:
        async with asyncio.timeout(timeout_s):
            while True:
                await ws.recv()
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError("unreachable")


def _codes(payload: dict[str, Any]) -> list[str]:
    return [(e.get("extensions") or {}).get("code", "") for e in payload.get("errors") or []]


def _revoke(driver: neo4j.Driver, space: str, key: str) -> None:
    key_id = key.removeprefix("egk_").split(".")[0]
    assert ApiKeyStore(driver, "neo4j").revoke(space, key_id) is not None


def test_a_key_revoked_while_the_socket_is_open_stops_working_at_once(
    ws_url: str, key: str, driver: neo4j.Driver, space: str
) -> None:
    async def scenario() -> tuple[int, str]:
        ws = await _acked(ws_url, key)
        assert (await _run(ws, STATS))["data"]["stats"]["episodes"] == 0
        _revoke(driver, space, key)
        await _subscribe(ws, 'mutation { createApiKey(label: "after revocation") { secret } }')
        return await _closed(ws)

    code, reason = asyncio.run(scenario())
    assert code == 4403 and "revoked" in reason
    keys = ApiKeyStore(driver, "neo4j").keys(space)
    assert [k.label for k in keys] == ["test"], "the revoked key minted a new one"


def test_a_running_subscription_ends_when_its_key_is_revoked(
    ws_url: str, key: str, driver: neo4j.Driver, space: str, services: ApiServices
) -> None:
    job_id = JobStore(services.redis).create(space, [])  # queued and never run: its progress never ends

    async def scenario() -> tuple[int, str]:
        ws = await _acked(ws_url, key)
        await _subscribe(ws, operation("job_progress"), {"id": job_id})
        first = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
        assert first["type"] == "next" and first["payload"]["data"]["jobProgress"]["state"] == "QUEUED", first
        _revoke(driver, space, key)
        return await _closed(ws)

    code, reason = asyncio.run(scenario())
    assert code == 4403 and "revoked" in reason


class _StoppedClock:
    """The clock the rate limiter reads (`app.api.security.time`), stopped at the moment it is made: every count of
    the test falls in the same one-minute window, whenever the test runs."""

    def __init__(self) -> None:
        self._now = time.time()

    def time(self) -> float:
        return self._now


def test_socket_operations_count_against_the_keys_rate_limit(
    ws_url: str, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(security, "time", _StoppedClock())  # the server runs in this process

    async def scenario() -> list[dict[str, Any]]:
        ws = await _acked(ws_url, key)
        return [await _run(ws, STATS) for _ in range(LIMITS["rate_limit_per_minute"] + 1)]

    results = asyncio.run(scenario())
    assert all(r.get("data") for r in results[:-1]), results[:-1]
    assert _codes(results[-1]) == ["RATE_LIMITED"], results[-1]
    assert "retry in" in results[-1]["errors"][0]["message"]


def test_a_socket_message_over_the_body_limit_closes_the_socket(ws_url: str, key: str) -> None:
    async def scenario() -> tuple[int, str]:
        ws = await _acked(ws_url, key)
        await _subscribe(ws, "query Big($pad: String) { stats { episodes } }", {"pad": "x" * 50_000})
        return await _closed(ws)

    code, reason = asyncio.run(scenario())
    assert code == 1009 and "1000 bytes" in reason


def test_alias_depth_and_token_limits_apply_on_the_socket(ws_url: str, key: str) -> None:
    aliases = "{ " + " ".join(f"a{i}: stats {{ episodes }}" for i in range(20)) + " }"
    deep = "{ dimensions " + "{ concepts { edges { node " * 6 + "{ key }" + " } } }" * 6 + " }"

    async def scenario() -> list[dict[str, Any]]:
        ws = await _acked(ws_url, key)
        return [await _run(ws, aliases), await _run(ws, deep)]

    too_many_aliases, too_deep = asyncio.run(scenario())
    assert "aliases" in str(too_many_aliases["errors"]), too_many_aliases
    assert "depth" in str(too_deep["errors"]), too_deep


def test_connections_per_key_are_capped(ws_url: str, key: str) -> None:
    async def scenario() -> tuple[int, str, dict[str, Any]]:
        held = [await _acked(ws_url, key) for _ in range(LIMITS["ws_max_connections_per_key"])]
        refused = await _connect(ws_url, key)
        code, reason = await _closed(refused)
        await held[0].close()
        await asyncio.sleep(0.2)
        again = await _acked(ws_url, key)  # a closed socket frees its place
        return code, reason, await _run(again, STATS)

    code, reason, after = asyncio.run(scenario())
    assert code == 4429 and "connections" in reason and "3" in reason
    assert after["data"]["stats"]["episodes"] == 0


def test_operations_in_flight_per_connection_are_capped(
    ws_url: str, key: str, space: str, services: ApiServices
) -> None:
    job_id = JobStore(services.redis).create(space, [])

    async def scenario() -> dict[str, Any]:
        ws = await _acked(ws_url, key)
        for _ in range(LIMITS["ws_max_operations_in_flight"]):
            await _subscribe(ws, operation("job_progress"), {"id": job_id})
        return await _run(ws, STATS)

    refused = asyncio.run(scenario())
    assert _codes(refused) == ["TOO_MANY_OPERATIONS"], refused
    assert "in flight" in refused["errors"][0]["message"]


def test_a_socket_that_never_sends_a_valid_key_is_closed(ws_url: str) -> None:
    async def scenario() -> list[tuple[int, str]]:
        silent = await _connect(ws_url, None, init=False)
        keyless = await _connect(ws_url, None)
        wrong = await _connect(ws_url, "egk_0123456789abcdef.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")
        return [await _closed(silent, 3.0), await _closed(keyless), await _closed(wrong)]

    (silent_code, _), (keyless_code, keyless_reason), (wrong_code, wrong_reason) = asyncio.run(scenario())
    assert silent_code == 4408
    assert keyless_code == 4401 and "API key" in keyless_reason
    assert wrong_code == 4403 and "revoked" in wrong_reason


def test_a_forgotten_node_is_not_served_again_over_the_same_socket(
    ws_url: str, gql: GraphQL, driver: neo4j.Driver, space: str
) -> None:
    gql.ingest([{"type": "document", "id": "ephemeral", "text": "The lighthouse keeper feeds seven gulls."}])
    records, _, _ = driver.execute_query("MATCH (e:Episode {space: $space}) RETURN e.id AS id", space=space)
    [episode_id] = [r["id"] for r in records]
    read = "query Read($id: ID!) { episode(id: $id) { __typename ... on Episode { text } } }"
    socket_key = issue_key(driver, space)  # its own rate-limit count: the HTTP polling above used the other key

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        ws = await _acked(ws_url, socket_key)
        before = await _run(ws, read, {"id": episode_id})
        forgotten = await asyncio.to_thread(gql, operation("forget"), {"episodeIds": [episode_id]})
        assert forgotten["forget"]["episodeIds"] == [episode_id]
        return before, await _run(ws, read, {"id": episode_id})

    before, after = asyncio.run(scenario())
    assert "lighthouse" in before["data"]["episode"]["text"]
    assert after["data"]["episode"]["__typename"] == "NotFound", after


def test_socket_operations_are_timed_in_the_request_histogram(ws_url: str, key: str) -> None:
    labels = {"route": "/graphql", "operation": "query", "field": "stats", "status": "ws"}

    def count() -> float:
        return REGISTRY.get_sample_value("engram_api_request_seconds_count", labels) or 0.0

    before = count()

    async def scenario() -> None:
        ws = await _acked(ws_url, key)
        for _ in range(2):
            assert (await _run(ws, STATS)).get("data")
        await ws.close()

    asyncio.run(scenario())
    assert count() == before + 2
