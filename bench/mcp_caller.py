"""Recall through Engram's MCP tools from synchronous benchmark code: an MCP SDK client session (streamable HTTP
at the API's /mcp, or `engram mcp` over stdio) kept open on an event loop of its own thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager
from typing import Any

from mcp import ClientSession


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
