"""Recall's and associate's arguments are declared once (graph/recall/arguments.py): the request models, the GraphQL
schema, MCP's tool parameters and the CLI's options all take their bounds and help from that declaration, and
nothing else restates them."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from typer.main import get_command

from app.api.schema.build import build_schema
from app.cli import cli
from app.mcp.server import associate, recall
from graph.recall.arguments import (
    ASSOCIATE_ARGUMENTS,
    RECALL_ARGUMENTS,
    TOKEN_BUDGET,
    Argument,
    out_of_bounds,
)
from graph.recall.associate.models import AssociateRequest
from graph.recall.config import RecallConfig
from graph.recall.models import RecallRequest
from graphql import GraphQLSchema


def _graphql_arguments(field: str) -> dict[str, Any]:
    schema: GraphQLSchema = build_schema()._schema
    query_type = schema.query_type
    assert query_type is not None
    return dict(query_type.fields[field].args)


@pytest.mark.parametrize(("field", "arguments"), [("recall", RECALL_ARGUMENTS), ("associate", ASSOCIATE_ARGUMENTS)])
def test_graphql_describes_each_argument_from_its_declaration(field: str, arguments: dict[str, Argument]) -> None:
    declared = _graphql_arguments(field)
    for argument in arguments.values():
        description = declared[argument.api_name].description or ""
        assert description.lower().rstrip(".") == argument.help().lower(), argument.name


@pytest.mark.parametrize(("tool", "arguments"), [(recall, RECALL_ARGUMENTS), (associate, ASSOCIATE_ARGUMENTS)])
def test_mcp_parameters_carry_the_declared_help_and_bounds_and_no_defaults_of_their_own(
    tool: Any, arguments: dict[str, Argument]
) -> None:
    from mcp.server.fastmcp.utilities.func_metadata import func_metadata

    schema = func_metadata(tool, skip_names=["ctx"]).arg_model.model_json_schema()
    for argument in arguments.values():
        parameter = schema["properties"][argument.name]
        assert parameter["description"] == argument.help()
        if not argument.text and argument.maximum is not None:
            assert (parameter["minimum"], parameter["maximum"]) == (argument.minimum, argument.maximum)
        if argument.name not in ("query", "utterance"):
            assert parameter.get("default") is None, f"MCP restates the default of {argument.name}"


@pytest.mark.parametrize(("command", "arguments"), [("recall", RECALL_ARGUMENTS), ("associate", ASSOCIATE_ARGUMENTS)])
def test_cli_help_is_the_declared_help_and_no_option_has_a_default_of_its_own(
    command: str, arguments: dict[str, Argument]
) -> None:
    click_command = get_command(cli).commands[command]  # type: ignore[attr-defined]
    helps = {parameter.help for parameter in click_command.params if getattr(parameter, "help", None)}
    helps |= {getattr(parameter, "help", None) for parameter in click_command.params}
    for argument in arguments.values():
        assert argument.help() in helps, f"engram {command}: no option shows {argument.name}'s help"
    for parameter in click_command.params:
        if isinstance(parameter.default, int | float) and not isinstance(parameter.default, bool):
            pytest.fail(f"engram {command} {parameter.name} has a default of its own: {parameter.default}")


def test_the_request_models_and_the_configured_defaults_take_the_declared_bounds() -> None:
    for model, arguments in ((RecallRequest, RECALL_ARGUMENTS), (AssociateRequest, ASSOCIATE_ARGUMENTS)):
        for argument in arguments.values():
            if argument.text or argument.maximum is None:
                continue
            metadata = model.model_fields[argument.name].metadata
            least = next(item.ge for item in metadata if hasattr(item, "ge"))
            greatest = next(item.le for item in metadata if hasattr(item, "le"))
            assert (least, greatest) == (argument.minimum, argument.maximum), argument.name
    with pytest.raises(ValidationError):
        RecallConfig(token_budget=TOKEN_BUDGET.maximum + 1)  # type: ignore[operator]


def test_out_of_bounds_names_the_argument_and_its_bounds() -> None:
    found = out_of_bounds(RECALL_ARGUMENTS, {"query": "x" * 2001, "token_budget": 40_000, "hop_limit": 0})
    assert [problem.message for problem in found] == [
        "query must be at most 2000 characters, got 2001",
        "tokenBudget must be between 16 and 32768, got 40000",
        "hopLimit must be between 1 and 4, got 0",
    ]
    assert [problem.over for problem in found] == [True, True, False]
    assert out_of_bounds(RECALL_ARGUMENTS, {"query": "fine", "token_budget": 16, "min_relevance": 1.0}) == []
    assert out_of_bounds(ASSOCIATE_ARGUMENTS, {"utterance": "  "})[0].message == (
        "utterance must contain at least one non-space character"
    )
