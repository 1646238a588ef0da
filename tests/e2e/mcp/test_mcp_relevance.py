"""Honest answers over MCP (streamable HTTP, the MCP SDK's client, the running stack): the recall tool returns no item
and a reason for a question about what was never said, each item's relevance otherwise, and refuses a min_relevance
outside [0, 1]."""

from __future__ import annotations

import asyncio

from app.mcp.client_sessions import http_session
from tests.e2e.api.test_relevance import PRIYA, UNASKED
from tests.e2e.mcp.agent_session import call, refused


async def _agent(api_base: str, key: str) -> None:
    async with http_session(api_base, key) as session:
        job = await call(session, "remember", {"records": [PRIYA], "wait": True, "timeout_s": 300})
        assert job["state"] == "SUCCEEDED", job

        nothing = await call(session, "recall", {"query": UNASKED, "min_relevance": 0.375})  # the fitted minimum
        assert nothing["items"] == [] and "'favourite movie'" in nothing["reason"]
        assert nothing["context"] == f"({nothing['reason']})"  # what the agent reads says why, not just "nothing"

        answer = await call(session, "recall", {"query": "What is the name of Priya's dog?", "min_relevance": 0.375})
        assert answer["reason"] is None and any("Biscuit" in item["text"] for item in answer["items"][:3])
        assert all(0.0 <= item["relevance"] <= 1.0 for item in answer["items"])

        everything = await call(session, "recall", {"query": UNASKED, "min_relevance": 0.0})
        assert everything["items"] and everything["reason"] is None

        message = await refused(session, "recall", {"query": UNASKED, "min_relevance": 1.5})
        assert "minRelevance must be between 0 and 1, got 1.5" in message


def test_an_agent_is_told_when_memory_holds_nothing_relevant(api_base: str, space_key: str) -> None:
    asyncio.run(asyncio.wait_for(_agent(api_base, space_key), timeout=420))
