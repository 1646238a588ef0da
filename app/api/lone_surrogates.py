"""Text that is no Unicode text is refused whole, before anything runs: a lone surrogate (JSON's "\\ud800" escape) in
any string of an operation's variables, nested JSON included. Python holds such strings, but no UTF-8 encoder, Neo4j or
Redis takes them; refused here, on every door (HTTP, WebSocket, MCP over the API), the answer names the variable's path
instead of failing deep inside a write. (In a document's literals the GraphQL parser refuses them itself.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from strawberry.extensions import SchemaExtension

from app.api.metrics import count_error
from graphql import (
    ExecutionResult,
    GraphQLError,
)

CODE = "BAD_USER_INPUT"


def surrogate_at(text: str) -> int | None:
    """The index of the first lone surrogate in `text` (None when it is all Unicode text)."""
    for index, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            return index
    return None


def lone_surrogates(value: Any, path: str) -> Iterator[str]:
    """A problem per string under `value` (JSON-like: dicts, lists, strings; keys too) holding a lone surrogate."""
    if isinstance(value, str):
        index = surrogate_at(value)
        if index is not None:
            yield f"{path}: a lone surrogate (U+{ord(value[index]):04X}) at character {index}: send Unicode text"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from lone_surrogates(key, f"{path} (a key)")
            yield from lone_surrogates(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from lone_surrogates(item, f"{path}[{index}]")


def problems_of(variables: dict[str, Any] | None) -> list[str]:
    """Every lone surrogate in an operation's variables, named by path (`$text`, `$records[0].text`). A document's
    own literals never hold one: the GraphQL parser refuses it first, naming the line and column."""
    return [p.replace("$.", "$", 1) for p in lone_surrogates(variables or {}, "$")]


class RefuseLoneSurrogates(SchemaExtension):
    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        problems = problems_of(context.variables)
        if problems:
            count_error(CODE)
            error = GraphQLError(
                f"not Unicode text: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                extensions={"code": CODE, "problems": problems[:20]},
            )
            context.result = ExecutionResult(data=None, errors=[error])
        yield
