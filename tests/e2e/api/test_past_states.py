"""Issue 59: times as an app developer gives them. `asOf` is the world's time (what was true then, by the times memory
holds for the facts: remember's `at`), `knownAt` the server's (what memory had recorded by then); a correction ends
the old fact when the change happened (or when it was made) and is proven by itself; a question about an earlier
state ("before", "used to") reaches the replaced fact and puts it first, with its validity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.support.graphql_client import GraphQL, operation

TOLD = "2025-01-10T09:00:00+00:00"  # when the app says Dana said it: a year before this server recorded it
MOVED = "2025-06-01T00:00:00+00:00"  # when the correction says the change happened

NODE_TIMES = """
query($id: ID!) {
  node(id: $id, user: "dana") { ... on Proposition { status validFrom validTo provenance { externalId } } }
}
"""


# The example operation (graphql/operations/recall.graphql) sends asOf; knownAt is the schema's too.
RECALL = """
query($query: String!, $asOf: DateTime, $knownAt: DateTime) {
  recall(query: $query, user: "dana", asOf: $asOf, knownAt: $knownAt) {
    __typename
    ... on Recall { items { id kind text supersededBy validFrom validTo } }
  }
}
"""


def _remember(gql: GraphQL, text: str, memory_id: str, at: str) -> None:
    job = gql(operation("remember"), {"text": text, "user": "dana", "id": memory_id, "at": at})["remember"]
    assert job["__typename"] == "Job", job
    gql.wait_for_job(job["id"])


def _recall(gql: GraphQL, query: str, **variables: Any) -> list[dict[str, Any]]:
    answer = gql(RECALL, {"query": query, **variables})["recall"]
    assert answer["__typename"] == "Recall", answer
    items: list[dict[str, Any]] = answer["items"]
    return items


def _texts(items: list[dict[str, Any]]) -> str:
    return " | ".join(item["text"] for item in items)


def _porto(items: list[dict[str, Any]]) -> dict[str, Any]:
    return next(item for item in items if item["kind"].lower() == "proposition" and "Porto" in item["text"])


def test_as_of_is_the_world_time_of_facts_and_known_at_the_servers(gql: GraphQL) -> None:
    _remember(gql, "I live in Porto.", "d-1", TOLD)
    assert "Porto" in _texts(_recall(gql, "Where does Dana live?", asOf="2025-02-01T00:00:00+00:00"))
    assert "Porto" not in _texts(_recall(gql, "Where does Dana live?", asOf="2024-12-01T00:00:00+00:00"))
    # What memory knew: nothing in February 2025 (the server recorded it today), the fact an hour from now.
    assert "Porto" not in _texts(_recall(gql, "Where does Dana live?", knownAt="2025-02-01T00:00:00+00:00"))
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert "Porto" in _texts(_recall(gql, "Where does Dana live?", knownAt=later))
    refused = gql.errors('{ recall(query: "x", asOf: "last tuesday") { __typename } }')
    assert refused and "ISO 8601" in str(refused), refused


def test_a_correction_ends_the_old_fact_when_the_change_happened_and_proves_the_new_one(gql: GraphQL) -> None:
    _remember(gql, "I live in Porto.", "d-1", TOLD)
    porto = _porto(_recall(gql, "Where does Dana live?"))
    corrected = gql(
        operation("correct"),
        {"propositionId": porto["id"], "text": "Dana lives in Berlin.", "validFrom": MOVED, "user": "dana"},
    )["correct"]
    assert corrected["__typename"] == "Corrected", corrected
    old_node = gql(NODE_TIMES, {"id": porto["id"]})["node"]
    new_node = gql(NODE_TIMES, {"id": corrected["propositionId"]})["node"]
    assert old_node["status"] == "SUPERSEDED"
    assert (
        datetime.fromisoformat(old_node["validTo"])
        == datetime.fromisoformat(MOVED)
        != (datetime.fromisoformat(old_node["validFrom"]))
    )
    assert datetime.fromisoformat(new_node["validFrom"]) == datetime.fromisoformat(MOVED)
    # Proven by the correction itself, not by the turn that said Porto.
    assert [p["externalId"] for p in new_node["provenance"]] == [f"correction/{porto['id']}"]
    assert [p["externalId"] for p in old_node["provenance"]] == ["d-1"]

    # The past state: the replaced fact first, with its validity; the current one still answers the present.
    for question in ("Where did Dana live before Berlin?", "Where did Dana use to live?"):
        first = _recall(gql, question)[0]
        assert "Porto" in first["text"] and first["supersededBy"] == corrected["propositionId"], (question, first)
        assert datetime.fromisoformat(first["validTo"]) == datetime.fromisoformat(MOVED)
    assert "Berlin" in _recall(gql, "Where does Dana live?")[0]["text"]
    # asOf: what was true then, by the correction's own date.
    march = _texts(_recall(gql, "Where does Dana live?", asOf="2025-03-01T00:00:00+00:00"))
    assert "Porto" in march and "Berlin" not in march, march
    assert "Berlin" in _recall(gql, "Where does Dana live?", asOf="2025-07-01T00:00:00+00:00")[0]["text"]

    missing = gql(operation("correct"), {"propositionId": "prop_00000000000000000000", "text": "x", "user": "dana"})
    assert missing["correct"]["__typename"] == "NotFound"


def test_a_correction_without_a_time_ends_the_old_fact_when_it_was_made(gql: GraphQL) -> None:
    _remember(gql, "I live in Porto.", "d-1", TOLD)
    porto = _porto(_recall(gql, "Where does Dana live?"))
    before = datetime.now(UTC)
    gql(operation("correct"), {"propositionId": porto["id"], "text": "Dana lives in Lyon.", "user": "dana"})
    after = datetime.now(UTC)
    node = gql(NODE_TIMES, {"id": porto["id"]})["node"]
    ended = datetime.fromisoformat(node["validTo"])
    assert before - timedelta(seconds=5) <= ended <= after + timedelta(seconds=5), node
    assert datetime.fromisoformat(node["validFrom"]) == datetime.fromisoformat(TOLD)
