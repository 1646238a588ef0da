"""Expected failures as schema types: a client can select them in a union instead of parsing messages."""

from __future__ import annotations

import strawberry


@strawberry.interface(description="A failure the caller can fix; the operation changed nothing.")
class UserError:
    message: str


@strawberry.type(description="No such id (or key) in the caller's space.")
class NotFound(UserError):
    id: str


@strawberry.type(description="The input is malformed; one line per problem, naming the record and field.")
class InvalidInput(UserError):
    problems: list[str]


@strawberry.type(description="The request asks for more than the server allows.")
class OverBudget(UserError):
    limit: int
    requested: int


def invalid(problems: list[str]) -> InvalidInput:
    return InvalidInput(message=f"invalid input ({len(problems)} problem(s)): {problems[0]}", problems=problems)
