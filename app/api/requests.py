"""What each HTTP request to the API was, for the latency histogram: its route, GraphQL operation kind and root
field, and status. The middleware opens a record per request; the schema extension, running inside it, names the
operation and counts its errors by code."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import SchemaExtension

from app.api.metrics import REQUEST_SECONDS, count_error, route_of
from graphql import FieldNode, GraphQLError, OperationDefinitionNode


@dataclass
class RequestRecord:
    route: str
    operation: str = ""  # query, mutation, subscription; "invalid" when no operation could be read
    field: str = ""  # the first root field, once the document passed validation
    status: int = 500  # until the response starts


_current: ContextVar[RequestRecord | None] = ContextVar("engram_request", default=None)


def current_request() -> RequestRecord | None:
    return _current.get()


class ObservedRequests:
    """Times every HTTP request (WebSockets live too long to be one sample) into engram_api_request_seconds."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        record = RequestRecord(route=route_of(scope["path"]))
        token = _current.set(record)
        started = time.perf_counter()

        async def observed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                record.status = int(message["status"])
            await send(message)

        try:
            await self._app(scope, receive, observed_send)
        finally:
            _current.reset(token)
            labels = (record.route, record.operation, record.field, str(record.status))
            REQUEST_SECONDS.labels(*labels).observe(time.perf_counter() - started)


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
    """Names the request's operation and counts its errors by code. First in the schema's extension list, so it
    leaves the operation last and counts errors as the client sees them (after masking)."""

    def on_operation(self) -> Iterator[None]:
        yield
        context = self.execution_context
        record = current_request()
        if record is not None:  # None for an operation on a WebSocket
            try:
                record.operation = context.operation_type.value
            except RuntimeError:  # no operation could be read from the document
                record.operation = "invalid"
            record.field = _root_field(context)
        result = context.result
        errors: list[GraphQLError] = list(
            (result.errors if result is not None else None) or context.pre_execution_errors or []
        )
        for error in errors:
            code = (error.extensions or {}).get("code")
            count_error(str(code) if code else "GRAPHQL_VALIDATION_FAILED")
