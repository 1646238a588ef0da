"""An agent brings memories up for what the user just said with the `associate` tool over MCP (issue 45): the
user's habit with why, in a compact context for the model; nothing and a reason for a remark memory has nothing on;
an empty remark refused plainly."""

from __future__ import annotations

import asyncio

from app.mcp.client_sessions import http_session
from tests.e2e.api.test_associate import LATER_WEDNESDAY, MIA, UNRELATED, WEDNESDAY_AGAIN
from tests.e2e.mcp.agent_session import call, refused


async def _remark_then_associate(api_base: str, key: str) -> None:
    async with http_session(api_base, key) as session:
        job = await call(session, "remember", {"records": [MIA], "wait": True, "timeout_s": 120})
        while not job["finished"]:  # a busy worker: the job waits its turn in the queue
            await asyncio.sleep(5)
            job = await call(session, "job_status", {"job_id": job["job_id"]})
        assert job["state"] == "SUCCEEDED", job
        found = await call(session, "associate", {"utterance": WEDNESDAY_AGAIN, "now": LATER_WEDNESDAY, "user": "mia"})
        first = found["memories"][0]
        assert "fridge" in first["item"]["text"].lower(), found["context"]
        assert any(why.startswith(("time:", "concept:")) for why in first["why"]), first["why"]
        assert found["context"].startswith("1. ") and "why:" in found["context"]
        nothing = await call(session, "associate", {"utterance": UNRELATED, "user": "mia"})
        assert nothing["memories"] == [] and "nothing in memory bears on this utterance" in nothing["reason"]
        assert nothing["context"].startswith("(nothing in memory")
        assert "utterance" in await refused(session, "associate", {"utterance": ""})


def test_associate_tool_brings_up_the_habit_and_nothing_for_an_unrelated_remark(api_base: str, space_key: str) -> None:
    asyncio.run(asyncio.wait_for(_remark_then_associate(api_base, space_key), timeout=900))
