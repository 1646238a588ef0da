"""Where the stdio MCP server's GraphQL client comes from: the API over HTTP (`engram mcp`). The API's own /mcp, in
process, is mounted by app/api/mcp_mount.py."""

from __future__ import annotations

from typing import Any, cast

import httpx
from engram_client import AsyncEngramClient
from mcp.server.fastmcp import Context

from app.mcp.server import ClientSource


def engram_client(url: str, http: httpx.AsyncClient) -> AsyncEngramClient:
    # httpx's AsyncClient is what the generated client's HttpClient protocol describes; only its stricter
    # `post` signature keeps a type checker from seeing that.
    return AsyncEngramClient(url=url, http_client=cast(Any, http))


def remote_client_source(url: str, api_key: str, timeout_s: float = 120.0) -> ClientSource:
    """One client for the process's life (stdio serves one agent with one key)."""
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout_s)
    client = engram_client(url, http)

    def source(ctx: Context[Any, Any, Any]) -> AsyncEngramClient:
        return client

    return source
