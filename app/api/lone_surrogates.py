"""Text that is no Unicode text is refused whole, before anything runs: a lone surrogate (JSON's "\\ud800" escape, or
GraphQL's "\\uD800" in a literal) in any string of an operation's variables or arguments. Python holds such strings,
but no UTF-8 encoder, Neo4j or Redis takes them; refused here, on every door (HTTP, WebSocket, MCP over the API), the
answer names the argument or variable path instead of failing deep inside a write."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql.language import Visitor
from strawberry.extensions import SchemaExtension

from app.api.metrics import count_error
from graphql import (
    ArgumentNode,
    ExecutionResult,
    FieldNode,
    GraphQLError,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    StringValueNode,
    ValueNode,
    visit,
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


def _literal(node: ValueNode) -> Any:
    """A literal's strings, as a JSON-like value (enough for `lone_surrogates`)."""
    if isinstance(node, StringValueNode):
        return node.value
    if isinstance(node, ListValueNode):
        return [_literal(item) for item in node.values]
    if isinstance(node, ObjectValueNode):
        return {field.name.value: _literal(field.value) for field in node.fields}
    return None


class _Arguments(Visitor):
    """Collects the problems of the string literals in a document's arguments, named `field.argument`."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._fields: list[str] = []

    def enter_field(self, node: FieldNode, *_: Any) -> None:
        self._fields.append(node.name.value)

    def leave_field(self, *_: Any) -> None:
        self._fields.pop()

    def enter_argument(self, node: ArgumentNode, *_: Any) -> None:
        where = f"{self._fields[-1] if self._fields else ''}.{node.name.value}"
        self.problems.extend(lone_surrogates(_literal(node.value), where))


def problems_of(document: Any, variables: dict[str, Any] | None) -> list[str]:
    """Every lone surrogate in an operation's variables (`$name.path`) and argument literals (`field.argument`)."""
    problems = list(lone_surrogates(variables or {}, "$"))
    problems = [p.replace("$.", "$", 1) for p in problems]
    if document is not None:
        arguments = _Arguments()
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                visit(definition, arguments)
        problems += arguments.problems
    return problems


class RefuseLoneSurrogates(SchemaExtension):
    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        problems = problems_of(context.graphql_document, context.variables)
        if problems:
            count_error(CODE)
            error = GraphQLError(
                f"not Unicode text: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                extensions={"code": CODE, "problems": problems[:20]},
            )
            context.result = ExecutionResult(data=None, errors=[error])
        yield
