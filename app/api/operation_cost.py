"""An operation costs one request per root field: aliases (or fragments at the root) that ask for ten recalls in one
document count ten against the key's rate limit, not one. The request itself was counted when it was admitted
(app/api/security.py); this charges the rest, after validation and before anything runs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from graphql.language import FragmentDefinitionNode
from strawberry.extensions import SchemaExtension

from app.api.metrics import count_error
from app.api.security import LimiterUnavailable, RateLimited, RateLimiter
from graphql import (
    ExecutionResult,
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)


def root_fields(selections: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode], seen: set[str]) -> int:
    """The fields an operation's root selection asks for, through inline fragments and spreads (each spread once:
    a fragment spread twice is merged by GraphQL, and `seen` stops a cycle validation has not refused yet)."""
    count = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            count += selection.name.value != "__typename"
        elif isinstance(selection, InlineFragmentNode):
            count += root_fields(selection.selection_set, fragments, seen)
        elif isinstance(selection, FragmentSpreadNode) and selection.name.value not in seen:
            fragment = fragments.get(selection.name.value)
            if fragment is not None:
                seen.add(selection.name.value)
                count += root_fields(fragment.selection_set, fragments, seen)
    return count


class RootFieldCost(SchemaExtension):
    def __init__(self, per_minute: int) -> None:
        self._per_minute = per_minute

    async def on_execute(self) -> AsyncIterator[None]:
        refusal = await self._charge()
        if refusal is not None:
            count_error(str((refusal.extensions or {}).get("code")))
            self.execution_context.result = ExecutionResult(data=None, errors=[refusal])
        yield

    async def _charge(self) -> GraphQLError | None:
        context = self.execution_context
        caller = getattr(context.context, "caller", None)
        document = context.graphql_document
        if caller is None or caller.key_id is None or document is None or self._per_minute <= 0:
            return None
        operation = context.operation_name
        fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
        chosen = [
            d
            for d in document.definitions
            if isinstance(d, OperationDefinitionNode)
            and (operation is None or (d.name is not None and d.name.value == operation))
        ]
        if not chosen:
            return None
        fields = root_fields(chosen[0].selection_set, fragments, set())
        if fields <= 1:
            return None
        limiter = RateLimiter(context.context.services.redis, self._per_minute)
        try:
            await asyncio.to_thread(
                limiter.check, caller.key_id, f"rate limit exceeded by {fields} root fields", fields - 1
            )
        except RateLimited as exc:
            return GraphQLError(str(exc), extensions={"code": "RATE_LIMITED", "retryAfter": exc.retry_after_s})
        except LimiterUnavailable as exc:
            return GraphQLError(str(exc), extensions={"code": "SERVICE_UNAVAILABLE", "retryAfter": exc.retry_after_s})
        return None
