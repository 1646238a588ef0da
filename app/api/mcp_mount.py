"""The MCP tools at /mcp on the API: each call's GraphQL client is the API app in-process, with the request's own key,
and a request without a valid key of a space is refused before any MCP handling."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from engram_client import AsyncEngramClient
from fastapi import FastAPI
from mcp.server.fastmcp import Context, FastMCP
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.limits import send_json_error
from app.api.security import Gate, LimiterUnavailable, RateLimited, client_address, presented_key
from app.mcp.server import ClientSource, build_mcp_server
from app.mcp.transports import engram_client
from graph.api_keys import InvalidApiKey

IN_PROCESS_URL = "http://engram.internal/graphql"  # never resolved: the ASGI transport calls the app directly


def in_process_client_source() -> ClientSource:
    """A client per call that sends the MCP request's own key to the API app it is mounted in."""

    def source(ctx: Context[Any, Any, Any]) -> AsyncEngramClient:
        request = ctx.request_context.request
        if request is None:  # only the HTTP transport reaches here
            raise RuntimeError("the in-process MCP client needs the HTTP request")
        key = presented_key(request.headers) or ""
        http = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=request.app), headers={"Authorization": f"Bearer {key}"}, timeout=None
        )
        return engram_client(IN_PROCESS_URL, http)

    return source


class RequireSpaceKey:
    """Refuses an MCP request without a valid key of a space before any MCP handling (401/403, as GraphQL does)."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        gate: Gate = scope["app"].state.gate  # the API's gate: failed keys are throttled here as on /graphql
        try:
            key = presented_key(headers)
            caller = await asyncio.to_thread(gate.caller, key, client_address(scope))
        except InvalidApiKey as exc:
            await send_json_error(
                send, 401, "UNAUTHENTICATED", f"{exc}: send a valid key as 'Authorization: Bearer egk_...'"
            )
            return
        except RateLimited as exc:
            await send_json_error(send, 429, "RATE_LIMITED", str(exc), retry_after_s=exc.retry_after_s)
            return
        except LimiterUnavailable as exc:
            await send_json_error(send, 503, "SERVICE_UNAVAILABLE", str(exc), retry_after_s=exc.retry_after_s)
            return
        if caller is None:
            await send_json_error(send, 401, "UNAUTHENTICATED", "send an API key: 'Authorization: Bearer egk_...'")
            return
        if caller.space is None:
            await send_json_error(
                send, 403, "FORBIDDEN", "the admin key manages spaces; use a space's API key for memory"
            )
            return
        await self._app(scope, receive, send)


def mount_mcp(app: FastAPI) -> FastMCP[Any]:
    """Serve the tools at /mcp on `app`; the caller runs `server.session_manager.run()` in its lifespan."""
    server = build_mcp_server(in_process_client_source())
    starlette_app = server.streamable_http_app()  # creates the session manager
    endpoint = next(r for r in starlette_app.routes if isinstance(r, Route) and r.path == "/mcp")
    guarded = RequireSpaceKey(endpoint.app)
    app.router.routes.append(Route("/mcp", endpoint=guarded, methods=["GET", "POST", "DELETE"]))
    return server
