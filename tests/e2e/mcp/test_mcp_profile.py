"""The `profile` tool over MCP (stdio and streamable HTTP against the running stack): Lena's home is Graz now, with
Porto before it, each with the turn that told it; `context` says so a line per slot; another user's profile holds
none of it, and a blank user is refused by the tool's schema."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import pytest
from mcp import ClientSession

from app.mcp.client_sessions import http_session, stdio_session
from tests.e2e.mcp.agent_session import call, refused

Opener = Callable[[str, str], AbstractAsyncContextManager[ClientSession]]
TRANSPORTS: dict[str, Opener] = {"stdio": stdio_session, "http": http_session}
TURNS = [
    ("porto", "2025-03-01T10:00:00Z", "I live in Porto and work at a bakery near the station."),
    ("graz", "2025-09-10T10:00:00Z", "Big news: I moved from Porto to Graz last month, and I started at a shipping "
                                     "firm there."),
]  # fmt: skip


async def _profile(open_session: Opener, api_base: str, key: str) -> None:
    async with open_session(api_base, key) as session:
        for turn_id, at, text in TURNS:
            job = await call(session, "remember", {
                "text": text, "user": "lena", "id": turn_id, "at": at, "session": turn_id, "wait": True,
                "timeout_s": 300,
            })  # fmt: skip
            assert job["state"] == "SUCCEEDED", job
        profile = await call(session, "profile", {"user": "lena"})
        assert profile["user"] == "lena" and profile["subjects"][0]["subject"].lower() == "lena"
        slots = {slot["slot"]: slot for slot in profile["subjects"][0]["slots"]}
        home = slots["home"]
        assert home["current"]["value"] == "Graz" and home["current"]["valid_from"].startswith("2025-08-01"), home
        assert [p["external_id"] for p in home["current"]["provenance"]] == ["graz"]
        porto = next(f for f in home["history"] if f["value"] == "Porto")
        assert porto["valid_to"] == home["current"]["valid_from"]
        assert porto["superseded_by"] == home["current"]["proposition_id"]
        line = next(line for line in profile["context"].splitlines() if " · home: " in line)
        assert line.startswith("lena · home: Graz (since 2025-08-01") and "before: Porto" in line, line

        narrowed = await call(session, "profile", {"user": "lena", "subject": "Lena"})
        assert [s["subject"].lower() for s in narrowed["subjects"]] == ["lena"]
        other = await call(session, "profile", {"user": "bob"})
        assert other["subjects"] == [] and "no facts" in other["context"]
        blank = await refused(session, "profile", {"user": ""})
        assert "user" in blank and "at least 1 character" in blank, blank


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
def test_the_profile_tool_shows_each_slot_now_and_before(api_base: str, space_key: str, transport: str) -> None:
    asyncio.run(asyncio.wait_for(_profile(TRANSPORTS[transport], api_base, space_key), timeout=900))
