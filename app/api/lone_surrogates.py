"""Text that is no Unicode text is refused whole, before anything runs: a lone surrogate (JSON's "\\ud800" escape) in
any string of an operation's variables, nested JSON included. Python holds such strings, but no UTF-8 encoder, Neo4j or
Redis takes them; refused here, on every door (HTTP, WebSocket, MCP over the API), the answer names the variable's path
instead of failing deep inside a write. (In a document's literals the GraphQL parser refuses them itself.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from strawberry.extensions import SchemaExtension

from app.api.metrics import count_error
from graphql import DocumentNode, ExecutionResult, GraphQLError, Visitor, visit

CODE = "BAD_USER_INPUT"


def surrogate_at(text: str) -> int | None:
    """The index of the first lone surrogate in `text` (None when it is all Unicode text)."""
    for index, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            return index
    return None


def lone_surrogates(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(path, what is wrong) for each string under `value` (JSON-like: dicts, lists, strings; keys too) holding a lone
    surrogate."""
    if isinstance(value, str):
        index = surrogate_at(value)
        if index is not None:
            yield path, f"a lone surrogate (U+{ord(value[index]):04X}) at character {index}: send Unicode text"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from lone_surrogates(key, f"{path} (a key)")
            yield from lone_surrogates(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from lone_surrogates(item, f"{path}[{index}]")


class _VariableUses(Visitor):
    """Where each variable is used: the field, argument and input-object fields it fills (`forget.input.session`)."""

    def __init__(self) -> None:
        super().__init__()
        self.uses: dict[str, str] = {}
        self._path: list[str] = []

    def enter_field(self, node: Any, *_: Any) -> None:
        self._path.append(node.name.value)

    def enter_argument(self, node: Any, *_: Any) -> None:
        self._path.append(node.name.value)

    def enter_object_field(self, node: Any, *_: Any) -> None:
        self._path.append(node.name.value)

    def leave_field(self, *_: Any) -> None:
        self._path.pop()

    leave_argument = leave_object_field = leave_field

    def enter_variable(self, node: Any, *_: Any) -> None:
        if self._path:  # a use, not the operation's declaration of it
            self.uses.setdefault(node.name.value, ".".join(self._path))


def problems_of(variables: dict[str, Any] | None, document: DocumentNode | None = None) -> list[str]:
    """Every lone surrogate in an operation's variables, named by the field and argument the variable fills and the
    path inside it (`remember.text ($text)`, `ingest.input.records ($records[0].text)`). A document's own literals
    never hold one: the GraphQL parser refuses it first, naming the line and column."""
    uses = _VariableUses()
    if document is not None:
        visit(document, uses)
    problems = []
    for name, value in (variables or {}).items():
        for path, wrong in lone_surrogates(value, f"${name}"):
            problems.append(f"{uses.uses[name]} ({path}): {wrong}" if name in uses.uses else f"{path}: {wrong}")
    return problems


class RefuseLoneSurrogates(SchemaExtension):
    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        problems = problems_of(context.variables, context.graphql_document)
        if problems:
            count_error(CODE)
            error = GraphQLError(
                f"not Unicode text: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                extensions={"code": CODE, "problems": problems[:20]},
            )
            context.result = ExecutionResult(data=None, errors=[error])
        yield
