"""A named recall recipe per request through the GraphQL API (docs/tuning.md, "Recall recipes"): each recipe answers,
`fast` with one hop at most and `default` as a request naming none, and an unknown name is refused with a clear
error. Real worker, Neo4j and embeddings."""

from __future__ import annotations

from typing import Any

from tests.e2e.api.test_relevance import PRIYA
from tests.support.graphql_client import GraphQL, operation

REFUSED = """
query($query: String!, $recipe: String) {
  recall(query: $query, recipe: $recipe) { __typename ... on InvalidInput { message problems } }
}
"""


def recall(gql: GraphQL, **variables: Any) -> dict[str, Any]:
    result = gql(operation("recall"), {"query": "Who does Priya play tennis with?", **variables})["recall"]
    assert result["__typename"] == "Recall", result
    return result  # type: ignore[no-any-return]


def test_each_recipe_answers_and_an_unknown_one_is_refused(gql: GraphQL) -> None:
    gql.ingest([PRIYA])
    plain = recall(gql)
    assert [i["id"] for i in recall(gql, recipe="default")["items"]] == [i["id"] for i in plain["items"]]
    fast = recall(gql, recipe="fast")
    assert fast["items"] and fast["hops"] <= 1
    for name in ("thorough", "associate"):
        assert recall(gql, recipe=name)["items"], name
    refused = gql(REFUSED, {"query": "Who does Priya play tennis with?", "recipe": "slow"})["recall"]
    assert refused["__typename"] == "InvalidInput" and "unknown recipe 'slow'" in str(refused["problems"])
