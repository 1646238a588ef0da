"""What an agent does through Engram's MCP tools, the same over every transport: remember, recall, explore,
correct, forget. Each step checks what the agent would rely on."""

from __future__ import annotations

from typing import Any

from mcp import ClientSession
from mcp.types import CallToolResult

WRONG_KEY = "egk_0123456789abcdef.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
EXPECTED_TOOLS = {
    "remember",
    "recall",
    "associate",
    "forget",
    "correct",
    "list_dimensions",
    "concept_page",
    "follow_link",
    "job_status",
    "list_memories",
    "export_memory",
    "profile",
}


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's structured result; fails on a tool error."""
    result = await session.call_tool(tool, arguments)
    assert not result.isError, f"{tool}: {result.content}"
    assert result.structuredContent is not None, tool
    return result.structuredContent


async def refused(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    """The error text of a call the service must refuse."""
    result: CallToolResult = await session.call_tool(tool, arguments)
    assert result.isError, f"{tool} was not refused: {result.structuredContent}"
    return " ".join(getattr(block, "text", "") for block in result.content)


async def check_tools_listed(session: ClientSession) -> None:
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40, f"{tool.name} needs a description an agent can use"
        assert tool.outputSchema is not None, f"{tool.name} publishes no output schema"
    # The records' schema is the ingest format's own Pydantic models (strict, with a discriminator).
    records = tools["remember"].inputSchema["$defs"]
    assert {"ConversationRecord", "DocumentRecord", "TrajectoryRecord"} <= set(records)
    assert records["ConversationRecord"]["additionalProperties"] is False


async def remember_recall_correct_forget(session: ClientSession, conversation: dict[str, Any]) -> None:
    job = await call(session, "remember", {"records": [conversation], "wait": True, "timeout_s": 300})
    assert job["state"] == "SUCCEEDED" and job["finished"] and job["counts"]["episodes"] == 6, job
    assert (await call(session, "job_status", {"job_id": job["job_id"]}))["state"] == "SUCCEEDED"

    answer = await call(session, "recall", {"query": "What did Melanie paint?", "limit": 5})
    items = answer["items"]
    painted = next(item for item in items[:3] if "sunrise" in item["text"])
    evidence = painted["provenance"][0]
    assert (evidence["external_id"], evidence["speaker"]) == ("D1:4", "Melanie")
    assert "sunrise" in answer["context"].splitlines()[items.index(painted)]
    # An agent recalling for the person it talks with says who "I" is.
    mine = await call(session, "recall", {"query": "What did I paint?", "limit": 5, "asker": "Melanie"})
    assert any("sunrise" in item["text"] for item in mine["items"][:3]), mine["items"]
    # And when it is asked, so that "two weeks ago" can be read.
    then = {"query": "What did Caroline do two weeks ago?", "limit": 5, "now": "2023-05-22T10:00:00Z"}
    dated = await call(session, "recall", then)
    assert any("support group" in item["text"] for item in dated["items"][:3]), dated["items"]

    proofs = (await call(session, "follow_link", {"node_id": painted["id"], "link_type": "PROVEN_BY"}))["result"]
    assert evidence["episode_id"] in {link["node_id"] for link in proofs}

    corrected: set[str] = set()
    if painted["kind"] == "proposition":
        text = "Melanie painted a sunrise over Lake Tahoe last year."
        fixed = await call(session, "correct", {"proposition_id": painted["id"], "text": text})
        assert fixed["created"] and fixed["supersedes_id"] == painted["id"] and fixed["text"] == text
        again = await call(session, "recall", {"query": "What did Melanie paint?", "limit": 5})
        ids = {item["id"] for item in again["items"]}
        assert fixed["proposition_id"] in ids and painted["id"] not in ids
        corrected.add(fixed["proposition_id"])

    gone = await call(session, "forget", {"episode_ids": [evidence["episode_id"]]})
    assert gone["episode_ids"] == [evidence["episode_id"]] and gone["not_found"] == []
    after = await call(session, "recall", {"query": "What did Melanie paint?", "limit": 10})
    # What only the forgotten turn proved went with it; a correction is proven by itself (its own episode) and stays.
    left = {item["id"] for item in after["items"] if "sunrise" in item["text"]}
    assert left <= corrected, "forgotten knowledge is still recalled"

    assert "NotFound" in await refused(session, "job_status", {"job_id": "no-such-job"})
    missing_text = await refused(session, "remember", {"records": [{"type": "document", "id": "d"}]})
    assert "text" in missing_text and "Field required" in missing_text, missing_text
    no_asker = await refused(session, "recall", {"query": "What did I paint?", "asker": ""})
    assert "asker must contain at least one non-space character" in no_asker, no_asker
    no_time = await refused(session, "recall", {"query": "What did I paint?", "now": "two weeks ago"})
    assert "now" in no_time, no_time
