"""An MCP SDK client session to Engram's tools, as an agent opens one: streamable HTTP at the API's /mcp, or
`engram mcp` launched over stdio. Shared by the demo, the benchmark and the tests."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def http_session(api_base: str, key: str, timeout_s: float = 300) -> AsyncIterator[ClientSession]:
    """An initialized session with `{api_base}/mcp`, sending `key` as the bearer token."""
    async with (
        httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=timeout_s) as http,
        streamable_http_client(f"{api_base}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(api_base: str, key: str) -> AsyncIterator[ClientSession]:
    """An initialized session with `engram mcp` (from this interpreter's venv) talking to `{api_base}/graphql`."""
    env = {**os.environ, "ENGRAM_API_KEY": key, "ENGRAM_URL": api_base}
    server = StdioServerParameters(command=str(Path(sys.executable).with_name("engram")), args=["mcp"], env=env)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session
