"""Malformed JSON request bodies answered with 400 before any handler parses them.

A JSON body that is not UTF-8, nests deeper than `MAX_JSON_DEPTH` levels (Python's parser recurses: a deep one
raised RecursionError, an internal error), or asks for a GraphQL subscription over HTTP (subscriptions are served
over WebSocket, graphql-transport-ws at /graphql) is refused with a message that says so. Runs inside the body size
limit, so the body it buffers is bounded.
"""

from __future__ import annotations

import json
from typing import Any

from graphql.utilities import get_operation_ast
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.limits import send_json_error
from app.api.metrics import count_error
from engram.json_depth import MAX_JSON_DEPTH, json_depth
from graphql import GraphQLError, OperationType, parse


class JsonBodyChecks:
    def __init__(self, app: ASGIApp, graphql_path: str = "/graphql") -> None:
        self._app = app
        self._graphql_path = graphql_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not _is_json(scope):
            await self._app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self._app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        refusal = _refusal(body, scope["path"].rstrip("/") == self._graphql_path)
        if refusal is not None:
            count_error("BAD_REQUEST")
            await send_json_error(send, 400, "BAD_REQUEST", refusal)
            return
        await self._app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive), send)


def _is_json(scope: Scope) -> bool:
    content_type = dict(scope["headers"]).get(b"content-type", b"").split(b";", 1)[0].strip().lower()
    return bool(content_type == b"application/json")


def _refusal(body: bytes, graphql: bool) -> str | None:
    """Why the body is refused, or None."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"the request body is not valid UTF-8 (byte {exc.start})"
    if json_depth(text) > MAX_JSON_DEPTH:
        return f"the request body is JSON nested deeper than {MAX_JSON_DEPTH} levels"
    if not graphql or "subscription" not in text:  # parsed again only where it may ask for one
        return None
    try:
        return _subscription_refusal(json.loads(text))
    except json.JSONDecodeError:
        return None  # the handler says what is wrong with it


def _subscription_refusal(data: Any) -> str | None:
    if not isinstance(data, dict) or not isinstance(data.get("query"), str):
        return None
    try:
        document = parse(data["query"])
    except GraphQLError:
        return None  # the handler reports the syntax error
    name = data.get("operationName")
    operation = get_operation_ast(document, name if isinstance(name, str) else None)
    if operation is not None and operation.operation is OperationType.SUBSCRIPTION:
        return "subscriptions are served over WebSocket (graphql-transport-ws at /graphql), not over HTTP POST"
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that hands out `messages` first, then the connection's own (a disconnect)."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
