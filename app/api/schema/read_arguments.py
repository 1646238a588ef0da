"""Recall's and associate's GraphQL arguments, described from their one declaration (graph/recall/arguments.py), and
the one check of their bounds, whose message every door shows as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry
from pydantic import ValidationError

from app.api.schema.outcomes import InvalidInput, OverBudget, invalid
from graph.recall.arguments import ASSOCIATE_ARGUMENTS, RECALL_ARGUMENTS, Argument, out_of_bounds


def _described(argument: Argument) -> Any:
    return strawberry.argument(description=argument.help()[:1].upper() + argument.help()[1:] + ".")


def recall_argument(name: str) -> Any:
    return _described(RECALL_ARGUMENTS[name])


def associate_argument(name: str) -> Any:
    return _described(ASSOCIATE_ARGUMENTS[name])


def refusal(arguments: Mapping[str, Argument], values: Mapping[str, Any]) -> InvalidInput | OverBudget | None:
    """The outcome for values outside their bounds: OverBudget for one asking more than the server gives (the first
    such), else InvalidInput with one line per argument; None when all are within."""
    found = out_of_bounds(arguments, values)
    for problem in found:
        if problem.over and problem.argument.maximum is not None:
            size = len(problem.value) if problem.argument.text else problem.value
            return OverBudget(message=problem.message, limit=int(problem.argument.maximum), requested=int(size))
    return invalid([problem.message for problem in found]) if found else None


def validation_problems(exc: ValidationError) -> InvalidInput:
    """A request model's own refusal (what the bounds check does not cover: an unknown recipe), field by field."""
    return invalid([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)])
