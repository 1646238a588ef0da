"""Tenant A's key reaches nothing of tenant B, through any operation: the space comes only from the key."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from tests.e2e.api.conftest import issue_key
from tests.support.graph_queries import label_counts
from tests.support.graphql_client import GraphQL, operation

SECRET = {
    "type": "conversation",
    "id": "vault",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2024-02-02T10:00:00Z",
            "turns": [
                {"speaker": "Zephyrine", "id": "V1", "text": "My quokka sanctuary in Tasmania opens next spring."},
                {"speaker": "Bartholomew", "id": "V2", "text": "I keep the zucchini vault code in a blue notebook."},
            ],
        }
    ],
}


@pytest.fixture()
def other(http: TestClient, driver: neo4j.Driver) -> Iterator[tuple[GraphQL, str]]:
    """Tenant B: its own space, key and secret conversation."""
    name = f"test-b-{uuid.uuid4().hex[:10]}"
    client = GraphQL(http, issue_key(driver, name))
    client.ingest([SECRET])
    yield client, name
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


def _ids(driver: neo4j.Driver, space: str, label: str) -> list[str]:
    records, _, _ = driver.execute_query(f"MATCH (n:{label} {{space: $space}}) RETURN n.id AS id", space=space)
    return [r["id"] for r in records]


def test_tenant_a_cannot_reach_tenant_b(
    gql: GraphQL, other: tuple[GraphQL, str], driver: neo4j.Driver, conversation: dict[str, Any]
) -> None:
    b, b_space = other
    gql.ingest([conversation])
    b_before = label_counts(driver, b_space)
    b_episodes, b_props = _ids(driver, b_space, "Episode"), _ids(driver, b_space, "Proposition")
    b_sources, b_concepts = _ids(driver, b_space, "Source"), _ids(driver, b_space, "Concept")
    assert b_episodes and b_props

    # Recall: dense and full-text paths both see only A's memory, even for B's exact words.
    for query in ("quokka sanctuary Tasmania", "zucchini vault code blue notebook", "Zephyrine"):
        recall = gql(operation("recall"), {"query": query})["recall"]
        texts = " ".join(i["text"] + " ".join(p["text"] for p in i["provenance"]) for i in recall["items"])
        assert "quokka" not in texts and "zucchini" not in texts
        assert not {i["id"] for i in recall["items"]} & set(b_props)

    # Lookups by B's ids find nothing.
    found = gql("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": b_episodes + b_props + b_sources})
    assert found["nodes"] == [None] * (len(b_episodes) + len(b_props) + len(b_sources))
    episode = gql("query($id: ID!) { episode(id: $id) { __typename } }", {"id": b_episodes[0]})["episode"]
    assert episode["__typename"] == "NotFound"
    follow = gql(operation("follow"), {"nodeId": b_props[0], "linkType": "PROVEN_BY"})["follow"]
    assert follow["__typename"] == "NotFound"
    b_key = driver.execute_query("MATCH (c:Concept {space: $s}) RETURN c.key AS k LIMIT 1", s=b_space)[0][0]["k"]
    concept = gql(operation("concept_page"), {"key": b_key})["concept"]
    assert concept["__typename"] == "NotFound" or concept["concept"]["id"] not in b_concepts

    # B's job and keys are not A's to see or revoke.
    b_job = b(operation("ingest"), {"records": [{"type": "document", "id": "memo", "text": "A short memo."}]})
    job = gql(operation("job"), {"id": b_job["ingest"]["id"]})["job"]
    assert job["__typename"] == "NotFound"
    b.wait_for_job(b_job["ingest"]["id"])  # finished before the fixture deletes B's space (a late job re-creates it)
    b_key_id = b(operation("api_keys"), operation_name="ApiKeys")["apiKeys"][0]["id"]
    revoke = gql(operation("api_keys"), {"id": b_key_id}, operation_name="RevokeApiKey")["revokeApiKey"]
    assert revoke["__typename"] == "NotFound"
    assert gql(operation("api_keys"), operation_name="ApiKeys")["apiKeys"][0]["id"] != b_key_id

    # Forget with B's ids removes nothing of B.
    forgotten = gql(operation("forget"), {"episodeIds": b_episodes, "sourceIds": b_sources, "knowledgeIds": b_props})
    assert forgotten["forget"]["episodeIds"] == [] and forgotten["forget"]["knowledgeIds"] == []
    assert set(forgotten["forget"]["notFound"]) == set(b_episodes + b_sources + b_props)

    # Stats count A only; B is untouched (its memo job may have added to it, never removed).
    assert gql(operation("stats"))["stats"]["episodes"] == 6
    b_after = label_counts(driver, b_space)
    assert all(b_after.get(label, 0) >= n for label, n in b_before.items())


def test_space_argument_does_not_exist_anywhere(gql: GraphQL) -> None:
    """No operation lets a caller name a space: asking for one is a validation error."""
    errors = gql.errors('{ stats(space: "someone-else") { episodes } }')
    assert errors and "space" in errors[0]["message"]
    errors = gql.errors('{ recall(query: "x", space: "someone-else") { __typename } }')
    assert errors and "space" in errors[0]["message"]


def test_subscription_to_another_tenants_job_is_refused(
    gql: GraphQL, other: tuple[GraphQL, str], http: TestClient
) -> None:
    b, _ = other
    job = b(operation("ingest"), {"records": [{"type": "document", "id": "memo2", "text": "Another memo."}]})
    with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_json({"type": "connection_init", "payload": {"apiKey": gql.key}})
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_json(
            {
                "id": "1",
                "type": "subscribe",
                "payload": {"query": operation("job_progress"), "variables": {"id": job["ingest"]["id"]}},
            }
        )
        message = ws.receive_json()
        assert message["type"] == "error" or (message["type"] == "next" and message["payload"].get("errors"))
        text = str(message["payload"])
        assert "no job" in text and "Another memo" not in text
    b.wait_for_job(job["ingest"]["id"])  # finished before the fixture deletes B's space (a late job re-creates it)
