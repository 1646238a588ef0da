"""`engram mcp` over stdio, launched by the MCP SDK's own client as an agent host would launch it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.e2e.mcp.agent_session import check_tools_listed, refused, remember_recall_correct_forget

ENGRAM = str(Path(sys.executable).with_name("engram"))


def _server(api_base: str, key: str) -> StdioServerParameters:
    env = {**os.environ, "ENGRAM_API_KEY": key, "ENGRAM_API_URL": f"{api_base}/graphql"}
    return StdioServerParameters(command=ENGRAM, args=["mcp"], env=env)


async def _agent(api_base: str, key: str, conversation: dict[str, Any]) -> None:
    async with stdio_client(_server(api_base, key)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await check_tools_listed(session)
        await remember_recall_correct_forget(session, conversation)


def test_an_agent_remembers_recalls_corrects_and_forgets_over_stdio(
    api_base: str, space_key: str, conversation: dict[str, Any]
) -> None:
    asyncio.run(asyncio.wait_for(_agent(api_base, space_key, conversation), timeout=420))


async def _wrong_key(api_base: str) -> str:
    key = "egk_0123456789abcdef.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
    async with stdio_client(_server(api_base, key)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await refused(session, "recall", {"query": "anything"})


def test_a_wrong_key_is_refused_over_stdio(api_base: str) -> None:
    message = asyncio.run(asyncio.wait_for(_wrong_key(api_base), timeout=120))
    assert "HTTP 401" in message and "Bearer" in message
