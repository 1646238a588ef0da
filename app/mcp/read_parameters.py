"""MCP tool parameters for recall's and associate's arguments, from their one declaration (graph/recall/arguments.py).

The bounds are shown in the tool's JSON schema but checked by the API alone, so an agent reads the same message for
an out-of-range value as every other door gives ("tokenBudget must be between 16 and 32768, got 40000"), and a
parameter the agent leaves out is not sent: the server's default applies.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from graph.recall.arguments import Argument


def read_parameter(argument: Argument) -> Any:
    shown: dict[str, Any] = {}
    if argument.text and argument.maximum is not None:
        shown["maxLength"] = int(argument.maximum)
    elif not argument.text:
        bounds = (("minimum", argument.minimum), ("maximum", argument.maximum))
        shown.update({key: value for key, value in bounds if value is not None})
    return Field(description=argument.help(), json_schema_extra=shown or None)
