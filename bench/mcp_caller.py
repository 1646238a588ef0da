"""Recall through Engram's MCP tools from synchronous benchmark code: an MCP SDK client session (streamable HTTP
at the API's /mcp, or `engram mcp` over stdio) kept open on an event loop of its own thread."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def http_session(base: str, key: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120) as http,
        streamable_http_client(f"{base}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(base: str, key: str) -> AsyncIterator[ClientSession]:
    env = {**os.environ, "ENGRAM_API_KEY": key, "ENGRAM_API_URL": f"{base}/graphql"}
    server = StdioServerParameters(command=str(Path(sys.executable).with_name("engram")), args=["mcp"], env=env)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


class McpRecaller:
    """`call(question)` runs the `recall` tool and says whether it answered without a tool error."""

    def __init__(self, open_session: Callable[[], AbstractAsyncContextManager[ClientSession]]) -> None:
        self._open = open_session
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._session: ClientSession | None = None
        self._closed: asyncio.Event | None = None
        self._task: Future[None] | None = None

    def __enter__(self) -> McpRecaller:
        self._thread.start()
        ready: Future[None] = Future()
        self._task = asyncio.run_coroutine_threadsafe(self._hold(ready), self._loop)
        ready.result(timeout=120)
        return self

    async def _hold(self, ready: Future[None]) -> None:
        """Keep the session open (its context managers enter and exit in this one task, as anyio requires)."""
        self._closed = asyncio.Event()
        try:
            async with self._open() as session:
                self._session = session
                ready.set_result(None)
                await self._closed.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def __exit__(self, *exc: object) -> None:
        if self._closed is not None:
            self._loop.call_soon_threadsafe(self._closed.set)
        if self._task is not None:
            self._task.result(timeout=60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def call(self, question: str) -> bool:
        assert self._session is not None, "use McpRecaller as a context manager"
        arguments: dict[str, Any] = {"query": question, "token_budget": 1024, "limit": 10}
        result = asyncio.run_coroutine_threadsafe(self._session.call_tool("recall", arguments), self._loop).result()
        return not result.isError and bool(result.structuredContent)
