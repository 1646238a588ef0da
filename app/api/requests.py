"""What each HTTP request to the API was: its id (the client's `X-Request-ID` or a new one, answered in the same
header and carried by every log line of the request, and by the jobs it queues), route, GraphQL operation kind and
root field, status and time. The middleware opens a record per request and logs one line when it ends; the schema
extension, running inside it, names the operation and counts its errors by code."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import SchemaExtension

from app.api.metrics import REQUEST_SECONDS, count_error, route_of
from engram.logs import (
    REQUEST_ID_HEADER,
    correlation_id,
    request_id_from,
    reset_correlation_id,
    set_correlation_id,
)
from graphql import FieldNode, GraphQLError, OperationDefinitionNode


@dataclass
class RequestRecord:
    route: str
    operation: str = ""  # query, mutation, subscription; "invalid" when no operation could be read
    field: str = ""  # the first root field, once the document passed validation
    status: int = 500  # until the response starts


_current: ContextVar[RequestRecord | None] = ContextVar("engram_request", default=None)
log = logging.getLogger("engram.api.access")
_ID_HEADER = REQUEST_ID_HEADER.lower().encode()


def current_request() -> RequestRecord | None:
    return _current.get()


class ObservedRequests:
    """Gives every HTTP request its id, times it into engram_api_request_seconds and logs it (a WebSocket gets an
    id too, but lives too long to be one sample)."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self._app(scope, receive, send)
            return
        presented = dict(scope["headers"]).get(_ID_HEADER, b"").decode("latin-1")
        correlation = set_correlation_id(request_id_from(presented))
        try:
            if scope["type"] == "http":
                await self._observe(scope, receive, send)
            else:
                await self._app(scope, receive, send)
        finally:
            reset_correlation_id(correlation)

    async def _observe(self, scope: Scope, receive: Receive, send: Send) -> None:
        record = RequestRecord(route=route_of(scope["path"]))
        token = _current.set(record)
        started = time.perf_counter()

        async def observed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                record.status = int(message["status"])
                message["headers"] = [*message.get("headers", []), (_ID_HEADER, correlation_id().encode())]
            await send(message)

        try:
            await self._app(scope, receive, observed_send)
        finally:
            _current.reset(token)
            seconds = time.perf_counter() - started
            REQUEST_SECONDS.labels(record.route, record.operation, record.field, str(record.status)).observe(seconds)
            operation = f" {record.operation} {record.field}".rstrip() if record.operation else ""
            log.info("%s %s%s %d %.1f ms", scope["method"], scope["path"], operation, record.status, 1000 * seconds)


def _root_field(execution_context: Any) -> str:
    """The operation's first root field: a name from the schema, as the document passed validation."""
    document = execution_context.graphql_document
    if document is None or execution_context.pre_execution_errors:
        return ""
    wanted = execution_context.operation_name
    for definition in document.definitions:
        if not isinstance(definition, OperationDefinitionNode):
            continue
        if wanted is not None and (definition.name is None or definition.name.value != wanted):
            continue
        for selection in definition.selection_set.selections:
            if isinstance(selection, FieldNode):
                return selection.name.value
    return ""


class OperationLabels(SchemaExtension):
    """Names the request's operation (or times it, on a WebSocket) and counts its errors by code. First in the
    schema's extension list, so it leaves the operation last and counts errors as the client sees them (after
    masking)."""

    def on_operation(self) -> Iterator[None]:
        started = time.perf_counter()
        yield
        context = self.execution_context
        try:
            kind = context.operation_type.value
        except RuntimeError:  # no operation could be read from the document
            kind = "invalid"
        record = current_request()
        if record is not None:
            record.operation, record.field = kind, _root_field(context)
        else:  # an operation on a WebSocket: a request of its own, timed here (status `ws`)
            seconds = time.perf_counter() - started
            REQUEST_SECONDS.labels("/graphql", kind, _root_field(context), "ws").observe(seconds)
        result = context.result
        errors: list[GraphQLError] = list(
            (result.errors if result is not None else None) or context.pre_execution_errors or []
        )
        for error in errors:
            code = (error.extensions or {}).get("code")
            count_error(str(code) if code else "GRAPHQL_VALIDATION_FAILED")
