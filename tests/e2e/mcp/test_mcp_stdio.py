"""`engram mcp` over stdio, launched by the MCP SDK's own client as an agent host would launch it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.mcp.client_sessions import stdio_session
from tests.e2e.mcp.agent_session import WRONG_KEY, check_tools_listed, refused, remember_recall_correct_forget


async def _agent(api_base: str, key: str, conversation: dict[str, Any]) -> None:
    async with stdio_session(api_base, key) as session:
        await check_tools_listed(session)
        await remember_recall_correct_forget(session, conversation)


def test_an_agent_remembers_recalls_corrects_and_forgets_over_stdio(
    api_base: str, space_key: str, conversation: dict[str, Any]
) -> None:
    asyncio.run(asyncio.wait_for(_agent(api_base, space_key, conversation), timeout=420))


async def _wrong_key(api_base: str) -> str:
    async with stdio_session(api_base, WRONG_KEY) as session:
        return await refused(session, "recall", {"query": "anything"})


def test_a_wrong_key_is_refused_over_stdio(api_base: str) -> None:
    message = asyncio.run(asyncio.wait_for(_wrong_key(api_base), timeout=120))
    assert "HTTP 401" in message and "Bearer" in message


def test_engram_mcp_without_a_key_says_so_and_serves_nothing() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ENGRAM_API_KEY"}
    engram = str(Path(sys.executable).with_name("engram"))
    result = subprocess.run([engram, "mcp"], env=env, input="", capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--api-key" in result.stderr
    assert result.stdout == ""  # no MCP message was written: the protocol stream stays clean
