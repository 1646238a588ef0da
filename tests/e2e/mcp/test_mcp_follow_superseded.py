"""An agent corrects a fact, then walks the SUPERSEDES link both ways with `follow_link` over MCP (issue 44: the
tool answered with a Python message, 'Object of type DateTime is not JSON serializable', after a `correct`)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.mcp.client_sessions import http_session
from tests.e2e.mcp.agent_session import call

CHAT: dict[str, Any] = {
    "type": "conversation",
    "id": "moves",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2024-03-01T09:00:00Z",
            "turns": [{"speaker": "Tom", "id": "t1", "text": "I moved to Lisbon for the new job at Harbor Lab."}],
        }
    ],
}


async def _correct_then_follow(api_base: str, key: str) -> None:
    async with http_session(api_base, key) as session:
        job = await call(session, "remember", {"records": [CHAT], "wait": True, "timeout_s": 120})
        while not job["finished"]:  # a busy worker: the job waits its turn in the queue
            await asyncio.sleep(5)
            job = await call(session, "job_status", {"job_id": job["job_id"]})
        assert job["state"] == "SUCCEEDED", job
        items = (await call(session, "recall", {"query": "Where did Tom move?", "limit": 5}))["items"]
        lisbon = next(item for item in items if item["kind"] == "proposition" and "Lisbon" in item["text"])
        text = "Tom moved to Porto for the new job at Harbor Lab."
        fixed = await call(
            session, "correct", {"proposition_id": lisbon["id"], "text": text, "valid_from": "2024-03-01T00:00:00Z"}
        )
        assert fixed["supersedes_id"] == lisbon["id"]
        # From the correction, the link leads to what it replaced; from the replaced fact, back to the correction.
        newer = await call(session, "follow_link", {"node_id": fixed["proposition_id"], "link_type": "SUPERSEDES"})
        assert [(n["node_id"], n["outgoing"], n["node_kind"]) for n in newer["result"]] == [
            (lisbon["id"], True, "Proposition")
        ]
        assert "Lisbon" in newer["result"][0]["text"]
        older = (await call(session, "follow_link", {"node_id": lisbon["id"], "link_type": "SUPERSEDES"}))["result"]
        assert [(n["node_id"], n["outgoing"], n["text"]) for n in older] == [(fixed["proposition_id"], False, text)]


def test_follow_link_walks_supersedes_after_a_correct(api_base: str, space_key: str) -> None:
    asyncio.run(asyncio.wait_for(_correct_then_follow(api_base, space_key), timeout=900))
