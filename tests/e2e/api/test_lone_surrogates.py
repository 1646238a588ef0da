"""A lone surrogate in any text of any operation is refused whole, naming where it is: never a 500, nothing written."""

from __future__ import annotations

import json
from typing import Any

import neo4j
import pytest

from tests.support.graph_queries import rows
from tests.support.graphql_client import GraphQL, operation

BAD = "\ud800"


def _post(gql: GraphQL, query: str, variables: dict[str, Any]) -> Any:
    """The body as a client sends such text: JSON with ASCII escapes ("\\ud800"; no UTF-8 encoder takes it raw)."""
    headers = {"Authorization": f"Bearer {gql.key}", "content-type": "application/json"}
    body = json.dumps({"query": query, "variables": variables})  # ensure_ascii: the surrogate as an escape
    return gql.http.post("/graphql", content=body, headers=headers)  # type: ignore[call-arg]


def _refused(gql: GraphQL, query: str, variables: dict[str, Any]) -> list[str]:
    response = _post(gql, query, variables)
    assert response.status_code == 200, response.text
    (error,) = response.json()["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT", error
    assert "lone surrogate" in error["message"]
    return error["extensions"]["problems"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "variables", "where"),
    [
        ("remember", {"text": f"I live in Porto{BAD}"}, "remember.text ($text)"),
        ("remember", {"text": "fine", "session": BAD}, "remember.session ($session)"),
        ("remember", {"text": "fine", "metadata": {"tag": BAD}}, "remember.metadata ($metadata.tag)"),
        ("remember", {"text": "fine", "metadata": {BAD: "x"}}, "remember.metadata ($metadata (a key))"),
        ("recall", {"query": f"where{BAD}"}, "recall.query ($query)"),
        ("forget", {"episodeIds": ["ok", BAD]}, "forget.input.episodeIds ($episodeIds[1])"),
        (
            "ingest",
            {"records": [{"type": "document", "id": "d", "text": f"a{BAD}"}]},
            "ingest.input.records ($records[0].text)",
        ),
    ],
)
def test_a_lone_surrogate_in_a_variable_is_named(
    gql: GraphQL, driver: neo4j.Driver, space: str, name: str, variables: dict[str, Any], where: str
) -> None:
    problems = _refused(gql, operation(name), variables)
    assert problems[0].startswith(f"{where}:"), problems
    assert rows(driver, "MATCH (n:Episode {space: $s}) RETURN count(n) AS n", s=space) == [{"n": 0}]


def test_a_lone_surrogate_in_a_literal_is_a_syntax_error_naming_where(gql: GraphQL) -> None:
    for literal in ("\\uD800", BAD):  # GraphQL's escape, or the character itself in the document
        query = f'mutation {{ remember(text: "I live in {literal} Porto") {{ __typename }} }}'
        response = _post(gql, query, {})
        assert response.status_code in (200, 400), response.text
        (error,) = response.json()["errors"]
        assert "Syntax Error" in error["message"] and "D800" in error["message"].upper(), error
        assert error["locations"] == [{"line": 1, "column": 38}]


def test_whole_text_passes(gql: GraphQL) -> None:
    answer = gql(operation("remember"), {"text": "I live in Porto 🏠 (a pair of surrogates in UTF-16, one character)"})
    assert answer["remember"]["__typename"] == "Job"
