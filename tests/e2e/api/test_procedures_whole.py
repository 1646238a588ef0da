"""A trajectory is one whole procedure (docs/procedures.md): its task is the intent the prescription solves, its
subgoal segments are ordered parts of it, and a procedural question finds it first in a space that holds much else.
Through the GraphQL API with the real worker, Neo4j and embeddings."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation

# The stack's one worker is shared with whatever else runs: a job may wait its turn.
INGEST_TIMEOUT_S = 900

BILLING: dict[str, Any] = {
    "type": "trajectory",
    "id": "deploy-billing-1",
    "task": "deploy the billing service to staging",
    "steps": [
        {
            "observation": "repository checked out at main",
            "action": "run the unit tests of the billing service",
            "subgoal": "build and test the release",
            "reward": 0.2,
        },
        {"observation": "all tests pass", "action": "build the billing docker image and push it to the registry"},
        {
            "observation": "image billing:1.4.2 in the registry",
            "action": "apply the staging manifests with kubectl",
            "subgoal": "roll out on the staging cluster",
        },
        {"observation": "pods running", "action": "check the health endpoint of billing on staging", "reward": 1.0},
    ],
}
STEPS = [step["action"] for step in BILLING["steps"]]
PARTS = [
    {"intent": "build and test the release", "steps": STEPS[:2]},
    {"intent": "roll out on the staging cluster", "steps": STEPS[2:]},
]
# Fifty turns of an unrelated chat (with a few words a procedure question shares: service, staging, deploy) and a
# handbook: the procedure must come first whatever else the space holds.
TOPICS = [
    "the new coffee machine in the kitchen makes terrible espresso",
    "my sister is staging a play at the community theatre next month",
    "the customer service at the bike shop was friendly and quick",
    "we should deploy more volunteers to the food bank on Saturdays",
    "the hiking trail near the lake was closed after the storm",
    "I finally finished the novel about the lighthouse keeper",
    "the kids want a puppy but our flat is far too small",
    "the train to the coast was forty minutes late again",
    "I am learning to bake sourdough and the starter smells odd",
    "our football team lost the derby in the last minute",
]
CONVERSATION: dict[str, Any] = {
    "type": "conversation",
    "id": "team-chat",
    "title": "Lena and Omar",
    "sessions": [
        {
            "id": f"day-{day}",
            "started_at": f"2024-03-{day + 1:02d}T09:00:00Z",
            "turns": [
                {
                    "speaker": "Lena" if turn % 2 == 0 else "Omar",
                    "id": f"d{day}-t{turn}",
                    "text": f"{'Did you hear' if turn % 2 == 0 else 'Yes, and'} {TOPICS[(day * 5 + turn) % 10]}.",
                }
                for turn in range(10)
            ],
        }
        for day in range(5)
    ],
}
DOCUMENT: dict[str, Any] = {
    "type": "document",
    "id": "office-guide",
    "title": "Office guide",
    "created_at": "2024-01-15T09:00:00Z",
    "text": "The office opens at eight and the last person out switches off the lights.\n\n"
    "Invoices for office supplies go to the finance team; the billing address is on the intranet.\n\n"
    "The on-call engineer restarts the ingestion worker after every deploy.",
}
PRESCRIPTION = """
query($id: ID!) {
  node(id: $id) {
    ... on Prescription { id text steps intentId intent { id text } parts { order intent steps } }
  }
}
"""


def _recall(gql: GraphQL, query: str, memory_types: list[str] | None = None) -> list[dict[str, Any]]:
    variables: dict[str, Any] = {"query": query}
    if memory_types:
        variables["memoryTypes"] = memory_types
    result = gql(operation("recall"), variables)["recall"]
    assert result["__typename"] == "Recall", result
    return result["items"]  # type: ignore[no-any-return]


def _graph_size(driver: neo4j.Driver, space: str) -> tuple[int, int]:
    records, _, _ = driver.execute_query(
        "MATCH (n {space: $space}) RETURN count(n) AS nodes, sum(COUNT { (n)-->() }) AS edges", space=space
    )
    return records[0]["nodes"], records[0]["edges"]


def _prescriptions(driver: neo4j.Driver, space: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (p:Prescription {space: $space}) OPTIONAL MATCH (p)-[:SOLVES]->(i:Intent) "
        "RETURN p.id AS id, p.steps AS steps, p.text AS text, collect(i.text) AS intents ORDER BY id",
        space=space,
    )
    return [dict(r) for r in records]


@pytest.fixture(scope="module")
def shared_space(driver: neo4j.Driver) -> Iterator[str]:
    """One space for the tests that only read it (ingesting fifty turns once)."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


@pytest.fixture(scope="module")
def billing_space(http: TestClient, driver: neo4j.Driver, shared_space: str) -> GraphQL:
    gql = GraphQL(http, issue_key(driver, shared_space))
    gql.ingest([CONVERSATION, DOCUMENT, BILLING], timeout_s=INGEST_TIMEOUT_S)
    return gql


def test_a_trajectory_with_two_subgoals_is_one_whole_procedure_solving_its_task(
    billing_space: GraphQL, driver: neo4j.Driver, shared_space: str
) -> None:
    stored = _prescriptions(driver, shared_space)
    assert [(p["steps"], p["intents"]) for p in stored] == [(STEPS, [BILLING["task"]])]
    items = _recall(billing_space, "How do I deploy the billing service?", ["PROCEDURAL"])
    assert [i["kind"] for i in items] == ["prescription"]
    node = billing_space(PRESCRIPTION, {"id": items[0]["id"]})["node"]
    assert node["steps"] == STEPS
    assert node["intent"] == {"id": node["intentId"], "text": BILLING["task"]}
    assert node["parts"] == [{"order": i, **part} for i, part in enumerate(PARTS)]
    assert node["text"].index(PARTS[0]["intent"]) < node["text"].index(PARTS[1]["intent"])


@pytest.mark.parametrize(
    "question",
    [
        "How do I deploy the billing service?",
        "What are the steps to get billing onto staging?",
        "How can I ship a new billing release to the staging environment?",
    ],
)
def test_a_procedural_question_finds_the_whole_procedure_first_among_unrelated_memories(
    billing_space: GraphQL, question: str
) -> None:
    items = _recall(billing_space, question)
    assert len(items) > 1, "the space's other memories are searched too"
    assert items[0]["kind"] == "prescription", [(i["kind"], i["text"][:60], i["score"]) for i in items[:3]]
    assert items[0]["text"].startswith(f"To {BILLING['task']}")
    assert sum(i["kind"] == "prescription" for i in items) == 1, "the subgoals are parts, not competing procedures"


def test_a_subgoal_question_finds_the_whole_procedure(billing_space: GraphQL) -> None:
    items = _recall(billing_space, "How do I roll out on the staging cluster?", ["PROCEDURAL"])
    assert items and items[0]["text"].startswith(f"To {BILLING['task']}")


def test_re_ingesting_the_same_trajectory_writes_nothing_new_and_a_changed_one_replaces_its_prescription(
    gql: GraphQL, driver: neo4j.Driver, space: str
) -> None:
    gql.ingest([BILLING], timeout_s=INGEST_TIMEOUT_S)
    before, size = _prescriptions(driver, space), _graph_size(driver, space)
    gql.ingest([BILLING], timeout_s=INGEST_TIMEOUT_S)
    assert _prescriptions(driver, space) == before and _graph_size(driver, space) == size

    # A subgoal written as a procedure of its own (as ingestion did before: docs/procedures.md) goes at the next
    # ingest of its trajectory, with the intent it alone solved.
    driver.execute_query(
        "MATCH (e:Episode {space: $space, external_id: 'step-2'}) "
        "CREATE (p:Prescription {space: $space, id: 'pre-legacy-part', text: 'To roll out', status: 'active'}) "
        "CREATE (p)-[:PROVEN_BY]->(e) "
        "CREATE (p)-[:SOLVES]->(:Intent {space: $space, id: 'int-legacy-part', text: 'roll out'})",
        space=space,
    )

    changed = copy.deepcopy(BILLING)
    changed["task"] = "deploy the billing service to production"
    changed["steps"][2]["subgoal"] = "roll out on the production cluster"
    changed["steps"][2]["action"] = "apply the production manifests with kubectl"
    gql.ingest([changed], timeout_s=INGEST_TIMEOUT_S)
    after = _prescriptions(driver, space)
    assert len(after) == 1 and after[0]["id"] == before[0]["id"], "replaced in place, the legacy part gone"
    assert after[0]["intents"] == [changed["task"]]
    assert after[0]["steps"][2] == "apply the production manifests with kubectl"
    intents, _, _ = driver.execute_query("MATCH (i:Intent {space: $space}) RETURN i.text AS t", space=space)
    assert [r["t"] for r in intents] == [changed["task"]], "the old task's intent goes with its prescription"

    unsplit = copy.deepcopy(changed)  # the same steps without subgoals: one part, the whole
    for step in unsplit["steps"]:
        step.pop("subgoal", None)
    gql.ingest([unsplit], timeout_s=INGEST_TIMEOUT_S)
    (only,) = _prescriptions(driver, space)
    node = gql(PRESCRIPTION, {"id": only["id"]})["node"]
    assert node["parts"] == [{"order": 0, "intent": changed["task"], "steps": only["steps"]}]
