"""Per-user memories over MCP (the MCP SDK's client; stdio and streamable HTTP against the running stack): `remember`
takes a plain string, and two users of one space never see each other's memories through recall, list_memories or
export_memory; forget takes a user's whole memory only when told everything=true."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from mcp import ClientSession

from app.mcp.client_sessions import http_session, stdio_session
from tests.e2e.mcp.agent_session import call, refused

Opener = Callable[[str, str], AbstractAsyncContextManager[ClientSession]]
BIKE = "I keep my red bike in the garden shed."
CELLO = "My cello lives in the hall cupboard next to the umbrellas."
TRANSPORTS: dict[str, Opener] = {
    "stdio": stdio_session,
    "http": http_session,
}


def _texts(answer: dict[str, Any]) -> str:
    return " ".join(item["text"] for item in answer["items"])


async def _two_users(open_session: Opener, api_base: str, key: str) -> None:
    async with open_session(api_base, key) as session:
        wait = {"wait": True, "timeout_s": 300}
        ana = await call(session, "remember", {"text": BIKE, "user": "ana", "id": "bike", **wait})
        assert ana["state"] == "SUCCEEDED", ana
        assert [(s["external_id"], s["episode_external_ids"]) for s in ana["sources"]] == [
            ("remember/default", ["bike"])
        ]
        # One sentence sent as `records` is a text to remember, not a pydantic error.
        bob = await call(session, "remember", {"records": CELLO, "user": "bob", **wait})
        assert bob["state"] == "SUCCEEDED", bob

        mine = await call(session, "recall", {"query": "Where is the bike kept?", "user": "ana"})
        assert "bike" in _texts(mine) and "cello" not in _texts(mine)
        theirs = await call(session, "recall", {"query": "Where is the bike kept?", "user": "bob", "min_relevance": 0})
        assert "bike" not in _texts(theirs) and "bike" not in theirs["context"]
        shared = await call(session, "recall", {"query": "Where is the bike kept?", "min_relevance": 0})
        assert shared["items"] == []  # the space's shared memory holds neither

        listed = await call(session, "list_memories", {"user": "ana", "kinds": ["EPISODE"]})
        assert [(m["text"], m["episode_external_ids"]) for m in listed["memories"]] == [(f"ana: {BIKE}", ["bike"])]
        exported = await call(session, "export_memory", {"user": "bob"})
        assert "cello" in exported["jsonl"] and "bike" not in exported["jsonl"] and exported["next_cursor"] is None

        assert "everything=true" in await refused(session, "forget", {"user": "ana"})
        assert "not both" in await refused(session, "remember", {"text": BIKE, "records": CELLO})
        gone = await call(session, "forget", {"user": "ana", "everything": True})
        assert gone["episodes_removed"] == 1
        after = await call(session, "recall", {"query": "Where is the bike kept?", "user": "ana", "min_relevance": 0})
        assert after["items"] == []
        still = await call(session, "recall", {"query": "Where is the cello?", "user": "bob"})
        assert "cello" in _texts(still)


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
def test_two_users_apart_and_a_plain_string_remembered_over_mcp(transport: str, api_base: str, space_key: str) -> None:
    asyncio.run(asyncio.wait_for(_two_users(TRANSPORTS[transport], api_base, space_key), timeout=600))
