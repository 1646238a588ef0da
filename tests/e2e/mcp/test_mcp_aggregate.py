"""Aggregation over MCP (streamable HTTP, the MCP SDK's client, the running stack): an agent asks how many times the
user went running and how much they spent, and gets the count and the sum with its unit in `aggregate` and in the
first line of `context` (docs/aggregation.md)."""

from __future__ import annotations

import asyncio

from app.mcp.client_sessions import http_session
from tests.e2e.api.test_aggregate import ANA, NOW
from tests.e2e.mcp.agent_session import call


async def _agent(api_base: str, key: str) -> None:
    async with http_session(api_base, key) as session:
        job = await call(session, "remember", {"records": [ANA], "wait": True, "timeout_s": 300})
        assert job["state"] == "SUCCEEDED", job
        asked = {"user": "ana", "asker": "Ana", "now": NOW}
        runs = await call(session, "recall", {"query": "How many times did I go running?", **asked})
        assert runs["aggregate"]["count"] == 3 and len(runs["aggregate"]["items"]) == 3
        assert runs["context"].startswith("aggregate (count of 'go running'): count 3")
        spent = await call(session, "recall", {"query": "How much did I spend in total?", **asked})
        assert (spent["aggregate"]["sum"], spent["aggregate"]["unit"]) == (65.0, "USD")
        assert "sum 65 USD" in spent["context"].splitlines()[0]
        plain = await call(session, "recall", {"query": "Where do I run with the club?", **asked})
        assert plain["aggregate"] is None


def test_an_agent_gets_the_count_and_the_sum(api_base: str, space_key: str) -> None:
    asyncio.run(asyncio.wait_for(_agent(api_base, space_key), timeout=420))
