"""EngramStore: LangGraph's `BaseStore` on Engram, sync (`batch`, over `EngramClient`) and async (`abatch`, over
`AsyncEngramClient`). The operations themselves are in ops.py, the namespaces in namespaces.py, the values in
values.py; docs/integrations.md shows it in a graph."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from types import TracebackType
from typing import Any

import httpx
from engram_client import AsyncEngramClient, EngramClient
from langgraph.store.base import BaseStore, Op, Result

from engram.integrations.langgraph.namespaces import DEFAULT_LAYOUT, Namespaces
from engram.integrations.langgraph.ops import Operations, Steps
from engram.integrations.langgraph.values import DEFAULT_TEXT_FIELDS


class EngramStore(BaseStore):
    """A LangGraph store whose items are memories of an Engram space.

    `url` is the API (its base URL or its /graphql endpoint) and `api_key` a key of the space; or pass clients of
    your own (`client` for the sync methods, `async_client` for the async ones). Namespaces are
    `(*prefix, user, session, agent)` (`layout` reorders or drops the last two); a value's text is its first
    `text_fields` field. `job_timeout`: how long a put waits for Engram to write (extraction included).
    """

    supports_ttl = False

    def __init__(
        self,
        url: str | None = None,
        api_key: str | None = None,
        *,
        client: EngramClient | None = None,
        async_client: AsyncEngramClient | None = None,
        prefix: Sequence[str] = (),
        layout: Sequence[str] = DEFAULT_LAYOUT,
        text_fields: Sequence[str] = DEFAULT_TEXT_FIELDS,
        timeout: float = 60.0,
        job_timeout: float = 300.0,
    ) -> None:
        if client is None and async_client is None and (url is None or api_key is None):
            raise ValueError("EngramStore needs url and api_key, or a client")
        self._url, self._timeout = url, timeout
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client, self._own_client = client, client is None
        self._async_client, self._async_given = async_client, async_client is not None
        self._async_loop: asyncio.AbstractEventLoop | None = None
        self._operations = Operations(Namespaces(prefix, layout), tuple(text_fields), job_timeout)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        client = self._sync_client()
        steps = self._operations.batch(ops)
        try:
            call = next(steps)
            while True:
                name, arguments = call
                if name == "sleep":
                    time.sleep(arguments["seconds"])
                    call = steps.send(None)
                else:
                    call = steps.send(getattr(client, name)(**arguments))
        except StopIteration as done:
            return _results(done.value)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        client = self._running_async_client()
        steps: Steps[list[Result]] = self._operations.batch(ops)
        try:
            call = next(steps)
            while True:
                name, arguments = call
                if name == "sleep":
                    await asyncio.sleep(arguments["seconds"])
                    call = steps.send(None)
                else:
                    call = steps.send(await getattr(client, name)(**arguments))
        except StopIteration as done:
            return _results(done.value)

    def _sync_client(self) -> EngramClient:
        if self._client is None:
            if self._url is None:
                raise RuntimeError("this EngramStore was given an async client only: use its async methods")
            http = httpx.Client(headers=self._headers, timeout=self._timeout)
            self._client = EngramClient(url=self._url, headers=self._headers, http_client=http)
        return self._client

    def _running_async_client(self) -> AsyncEngramClient:
        """The async client, one per event loop (an httpx.AsyncClient's connections belong to the loop that made
        them); a client given to the store is used as it is."""
        loop = asyncio.get_running_loop()
        if self._async_given and self._async_client is not None:
            return self._async_client
        if self._async_client is None or self._async_loop is not loop:
            if self._url is None:
                raise RuntimeError("this EngramStore was given a sync client only: use its sync methods")
            http = httpx.AsyncClient(headers=self._headers, timeout=self._timeout)
            self._async_client = AsyncEngramClient(url=self._url, headers=self._headers, http_client=http)
            self._async_loop = loop
        return self._async_client

    def close(self) -> None:
        """Closes the sync client the store made (not one it was given)."""
        if self._client is not None and self._own_client:
            self._client.http_client.close()
            self._client = None

    async def aclose(self) -> None:
        """Closes the async client the store made for this event loop (not one it was given)."""
        if self._async_client is not None and not self._async_given and self._async_loop is asyncio.get_running_loop():
            await self._async_client.http_client.aclose()
            self._async_client, self._async_loop = None, None

    def __enter__(self) -> EngramStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    async def __aenter__(self) -> EngramStore:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


def _results(value: Any) -> list[Result]:
    return list(value)
