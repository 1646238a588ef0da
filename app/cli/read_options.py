"""CLI options for recall's and associate's arguments, from their one declaration (graph/recall/arguments.py).

The help shows each argument's bounds and default; they are checked by the same code the API runs, so the CLI prints
the same message for an out-of-range value as every other door ("tokenBudget must be between 16 and 32768, got
40000"), and an option left out is not sent: the server's default applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer

from graph.recall.arguments import Argument, camel, named_only, out_of_bounds


def read_option(argument: Argument, *declarations: str) -> Any:
    return typer.Option(*declarations, help=argument.help())


def read_text(argument: Argument) -> Any:
    return typer.Argument(help=argument.help())


def checked_variables(arguments: Mapping[str, Argument], values: Mapping[str, Any]) -> dict[str, Any]:
    """The API's variables for the values named (by the request model's names), after the one bounds check: a value
    out of bounds is refused before any request, in the words the API itself would use."""
    problems = out_of_bounds(arguments, values)
    if problems:
        raise ValueError("; ".join(problem.message for problem in problems))
    return {camel(name): value for name, value in named_only(values).items()}
