"""Errors: expected ones are part of the schema (union members) or typed GraphQL errors with a code;
anything unexpected is masked, logged with a correlation id, and the client gets only that id."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from strawberry.extensions import MaskErrors

from engram.logs import correlation_id
from graph.reads import DatabaseBusy, ReadTimedOut, TransactionTooLarge
from graphql import GraphQLError

log = logging.getLogger("engram.api")


class ExpectedError(Exception):
    """An error the client caused and can fix; shown as is, with `extensions.code`."""

    code = "BAD_REQUEST"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.extensions = {"code": self.code}


class Unauthenticated(ExpectedError):
    code = "UNAUTHENTICATED"


class Forbidden(ExpectedError):
    code = "FORBIDDEN"


class InvalidArgument(ExpectedError):
    code = "BAD_USER_INPUT"


class NotFoundError(ExpectedError):
    code = "NOT_FOUND"


class EmbedderMismatchError(ExpectedError):
    """The space's vectors are of another embedder family than the server's (docs/embedding.md)."""

    code = "EMBEDDER_MISMATCH"


class KeyLimit(ExpectedError):
    """The space holds as many active API keys as it may."""

    code = "KEY_LIMIT"


class TooManyRequests(ExpectedError):
    """An operation with a limit of its own (e.g. minting keys) asked for too often; `retryAfter` says when to."""

    code = "RATE_LIMITED"

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.extensions["retryAfter"] = retry_after_s  # type: ignore[assignment]


def _is_expected(error: GraphQLError) -> bool:
    # Syntax, validation and variable-coercion errors describe the client's document (no path, or no original
    # error, or graphql-core's own error); only exceptions escaping our resolvers are unexpected.
    original = error.original_error
    return error.path is None or original is None or isinstance(original, ExpectedError | GraphQLError)


def _told(error: GraphQLError, message: str, extensions: dict[str, str]) -> GraphQLError:
    """What the client sees instead of `error`: the same place in the document, our message, no original error."""
    # (message, nodes, source, positions, path, original_error, extensions)
    return GraphQLError(message, error.nodes, error.source, error.positions, error.path, None, extensions)


def _bounded_read(error: GraphQLError) -> GraphQLError | None:
    """A read Neo4j stopped at its timeout or its memory cap, or one no connection came free for, told as such (not
    masked: the message names no data, and the client can act on it)."""
    original = error.original_error
    if isinstance(original, ReadTimedOut):
        code, advice = "TIMEOUT", "ask for less (a smaller limit, tokenBudget, hopLimit or page) or retry later"
    elif isinstance(original, TransactionTooLarge):
        code, advice = "QUERY_TOO_LARGE", "ask for less (a smaller limit, tokenBudget, hopLimit or page)"
    elif isinstance(original, DatabaseBusy):
        code, advice = "SERVICE_UNAVAILABLE", "retry in a few seconds"
    else:
        return None
    log.warning("%s at %s: %s", code, ".".join(map(str, error.path or [])), original)
    return _told(error, f"{original}: {advice}", {"code": code})


class CorrelatedMaskErrors(MaskErrors):
    """Masks unexpected errors; each gets a correlation id (the request's) in the message and in the server log."""

    def __init__(self, new_id: Callable[[], str] = lambda: correlation_id() or uuid.uuid4().hex[:16]) -> None:
        super().__init__(should_mask_error=lambda error: not _is_expected(error))
        self._new_id = new_id

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        bounded = _bounded_read(error)
        if bounded is not None:
            return bounded
        correlation_id = self._new_id()
        log.error(
            "unexpected error %s at %s",
            correlation_id,
            ".".join(map(str, error.path or [])),
            exc_info=error.original_error,
        )
        message = f"Internal error (correlation id {correlation_id}); the server log has the details."
        return _told(error, message, {"code": "INTERNAL_SERVER_ERROR", "correlationId": correlation_id})
