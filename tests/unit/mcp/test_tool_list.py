"""The MCP server registers its tools from one list (app/mcp/server.py TOOLS), each with its description, and the
input schema an agent sees is the function's parameters without the call's context."""

from __future__ import annotations

import asyncio

from app.mcp.server import TOOLS, build_mcp_server


def test_every_listed_tool_is_registered_once_with_its_description_and_no_context_parameter() -> None:
    server = build_mcp_server(lambda ctx: None)  # type: ignore[arg-type,return-value]
    tools = asyncio.run(server.list_tools())
    assert [t.name for t in tools] == [d.function.__name__ for d in TOOLS]
    assert len({t.name for t in tools}) == len(TOOLS) == 12
    for tool, listed in zip(tools, TOOLS, strict=True):
        assert tool.description == listed.description
        assert "ctx" not in tool.inputSchema.get("properties", {})
    recall = next(t for t in tools if t.name == "recall")
    assert recall.inputSchema["required"] == ["query"]
