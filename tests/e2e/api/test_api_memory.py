"""The GraphQL API end to end: ingest through the worker, recall with provenance, navigation, pagination,
forget, bounded Neo4j round trips for nested queries, and memories that are facts (their subject, attribute and value
in `memories`, `node` and `history`)."""

from __future__ import annotations

import json
from typing import Any

import neo4j
import pytest

from app.api.services import ApiServices
from engram.concept_keys.sync import KeyKind, KeyLog
from tests.support.graph_queries import label_counts
from tests.support.graphql_client import GraphQL, operation

NESTED_RECALL = """
query($limit: Int!) {
  recall(query: "What do Caroline and Melanie do?", limit: $limit, tokenBudget: 4096) {
    ... on Recall {
      items {
        id
        node {
          ... on Proposition {
            concepts { key }
            provenance { externalId source { kind externalId } }
          }
        }
      }
    }
  }
}
"""


def _cost(response: Any) -> int:
    return int(response.json()["extensions"]["cost"]["neo4jQueries"])


def test_ingest_then_recall_with_provenance_and_trace(gql: GraphQL, conversation: dict[str, Any]) -> None:
    job = gql.ingest([conversation])
    assert job["counts"]["episodes"] == 6 and job["counts"]["propositions"] > 0
    assert job["stagesDone"] == ["standardize", "extract", "embed", "write", "consolidate"]
    recall = gql(operation("recall"), {"query": "When did Caroline go to the LGBTQ support group?"})["recall"]
    assert recall["__typename"] == "Recall"
    top = recall["items"][0]
    assert "support group yesterday (7 May 2023)" in top["text"]
    assert [p["externalId"] for p in top["provenance"]] == ["D1:3"]
    assert top["provenance"][0]["speaker"] == "Caroline"
    assert "lgbtq support group" in {c["key"] for c in top["node"]["concepts"]}
    assert [s["step"] for s in recall["trace"]][:2] == ["route", "seed"]
    assert 0 < recall["tokens"] <= 512
    assert "MATCH" in recall["cypher"]


def test_a_first_person_query_searches_what_the_asker_said(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    variables = {"query": "When did I go to the support group?", "asker": "Caroline", "addressee": "Melanie"}
    recall = gql(operation("recall"), variables)["recall"]
    step = next(s for s in recall["trace"] if s["step"] == "participants")
    assert step["detail"]["meant"] == ["Caroline"]
    assert recall["items"][0]["provenance"][0]["speaker"] == "Caroline"
    assert "support group" in recall["items"][0]["text"]


def test_a_query_naming_a_time_is_read_against_now(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    variables = {"query": "What did Caroline do two weeks ago?", "now": "2023-05-22T10:00:00Z"}
    recall = gql(operation("recall"), variables)["recall"]
    step = next(s for s in recall["trace"] if s["step"] == "when")
    assert step["detail"]["days"] == [{"from": "2023-05-05", "to": "2023-05-11"}] and step["detail"]["episodes"] >= 1
    assert any("when" in item["foundBy"] for item in recall["items"])


def test_nested_fields_cost_the_same_number_of_queries_for_any_width(
    gql: GraphQL, conversation: dict[str, Any]
) -> None:
    gql.ingest([conversation])
    bare = (
        '{ recall(query: "What do Caroline and Melanie do?", limit: 20, tokenBudget: 4096) '
        "{ ... on Recall { items { id } } } }"
    )
    # The first recall of a space also counts its size (remembered for 30 s): every recall compared below must
    # find it remembered, or the comparison measures the cache instead of the nested fields.
    gql.raw(bare)
    narrow = gql.raw(NESTED_RECALL, {"limit": 2})
    wide = gql.raw(NESTED_RECALL, {"limit": 20})
    items = [i for i in wide.json()["data"]["recall"]["items"] if "provenance" in i["node"]]  # propositions
    assert len(items) > 4 and all(i["node"]["provenance"] for i in items)
    assert all(p["source"]["kind"] == "conversation" for i in items for p in i["node"]["provenance"])
    # Recall's own statements plus one batch each for nodes, concepts, provenance and sources.
    recall_only = gql.raw(bare)
    assert _cost(wide) - _cost(recall_only) == 4
    assert _cost(narrow) - _cost(recall_only) <= 4


def test_lookups_and_navigation(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    page = gql(operation("concept_page"), {"key": "lgbtq support group"})["concept"]
    assert page["__typename"] == "ConceptPage"
    assert page["concept"]["key"] == "lgbtq support group" and page["concept"]["df"] >= 1
    proposition = page["propositions"]["edges"][0]["node"]
    assert [p["externalId"] for p in proposition["provenance"]] == ["D1:3"]

    follow = gql(operation("follow"), {"nodeId": proposition["id"], "linkType": "PROVEN_BY"})["follow"]
    assert [link["node"]["__typename"] for link in follow["links"]] == ["Episode"]
    episode_id = follow["links"][0]["node"]["id"]
    episode = gql(
        "query($id: ID!) { episode(id: $id) { ... on Episode { externalId speaker source { id } "
        "knowledge { ... on Proposition { id } } } } }",
        {"id": episode_id},
    )["episode"]
    assert episode["externalId"] == "D1:3" and episode["speaker"] == "Caroline"
    assert proposition["id"] in {k["id"] for k in episode["knowledge"]}

    missing = gql(operation("concept_page"), {"key": "no such concept"})["concept"]
    assert missing["__typename"] == "NotFound"
    assert gql('{ node(id: "prop_00000000000000000000") { id } }')["node"] is None
    stats = gql(operation("stats"))["stats"]
    assert stats["episodes"] == 6 and stats["sources"] == 2 and stats["activePropositions"] == stats["propositions"]


def test_source_episodes_page_with_cursors_and_caps(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    items = gql('{ recall(query: "support group") { ... on Recall { items { provenance { sourceId externalId } } } } }')
    episode = next(p for i in items["recall"]["items"] for p in i["provenance"] if p["externalId"] == "D1:3")
    seen: list[str] = []
    after = None
    while True:
        node = gql(operation("source_episodes"), {"id": episode["sourceId"], "first": 2, "after": after})["node"]
        connection = node["episodes"]
        seen += [e["node"]["externalId"] for e in connection["edges"]]
        assert connection["totalCount"] == 4
        if not connection["pageInfo"]["hasNextPage"]:
            break
        after = connection["pageInfo"]["endCursor"]
    assert seen == ["D1:1", "D1:2", "D1:3", "D1:4"]

    too_many = gql.errors(operation("source_episodes"), {"id": episode["sourceId"], "first": 1000})
    assert too_many[0]["extensions"]["code"] == "BAD_USER_INPUT" and "between 1 and" in too_many[0]["message"]
    bad_cursor = gql.errors(operation("source_episodes"), {"id": episode["sourceId"], "after": "not-a-cursor"})
    assert bad_cursor[0]["extensions"]["code"] == "BAD_USER_INPUT"


def test_forget_cascades_and_reports_what_went(
    gql: GraphQL, driver: neo4j.Driver, space: str, conversation: dict[str, Any], services: ApiServices
) -> None:
    gql.ingest([conversation])
    before = label_counts(driver, space)
    recall = gql(operation("recall"), {"query": "When did Caroline go to the LGBTQ support group?"})["recall"]
    top = recall["items"][0]
    episode_id = gql(
        '{ recall(query: "When did Caroline go to the LGBTQ support group?") { ... on Recall { items '
        "{ provenance { episodeId } } } } }"
    )["recall"]["items"][0]["provenance"][0]["episodeId"]
    version_before = KeyLog(services.redis, space, KeyKind.CONCEPT).position()[0]
    forgotten = gql(operation("forget"), {"episodeIds": [episode_id, "ep_00000000000000000000"]})["forget"]
    assert forgotten["__typename"] == "Forgotten"
    assert forgotten["episodeIds"] == [episode_id] and top["id"] in forgotten["knowledgeIds"]
    assert forgotten["notFound"] == ["ep_00000000000000000000"]
    after = label_counts(driver, space)
    assert after["Episode"] == before["Episode"] - 1
    again = gql(operation("recall"), {"query": "When did Caroline go to the LGBTQ support group?"})["recall"]
    assert top["id"] not in {i["id"] for i in again["items"]}
    # Concepts left without mentions are gone, and every process's key trie is told (engram/concept_keys/sync.py).
    assert forgotten["conceptsRemoved"] >= 1  # "lgbtq support group" was mentioned only there
    # The log is emptied rather than told the removed keys (which would keep their text in Redis): its version
    # moves on, so every reader reloads from the graph.
    log = KeyLog(services.redis, space, KeyKind.CONCEPT)
    assert log.since("0-0")[0] == [] and log.position()[0] > version_before
    # Forgetting again removes nothing and says so.
    repeat = gql(operation("forget"), {"episodeIds": [episode_id]})["forget"]
    assert repeat["episodeIds"] == [] and repeat["notFound"] == [episode_id]


def test_forget_knowledge_keeps_the_episodes(
    gql: GraphQL, driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    gql.ingest([conversation])
    before = label_counts(driver, space)
    top = gql(operation("recall"), {"query": "adoption agencies"})["recall"]["items"][0]
    forgotten = gql(operation("forget"), {"knowledgeIds": [top["id"]]})["forget"]
    assert forgotten["knowledgeIds"] == [top["id"]] and forgotten["episodeIds"] == []
    after = label_counts(driver, space)
    assert after["Episode"] == before["Episode"] and after["Proposition"] == before["Proposition"] - 1


@pytest.mark.parametrize("invalid", [[], [{"type": "document", "id": "d", "text": ""}]])
def test_ingest_rejects_invalid_records_and_writes_nothing(
    gql: GraphQL, driver: neo4j.Driver, space: str, invalid: list[dict[str, Any]]
) -> None:
    result = gql(operation("ingest"), {"records": invalid})["ingest"]
    assert result["__typename"] == "InvalidInput" and result["problems"]
    assert sum(label_counts(driver, space).values()) <= 2  # the Space and its ApiKey, nothing else


def test_ingest_an_uploaded_file(gql: GraphQL, document: dict[str, Any], trajectory: dict[str, Any]) -> None:
    body = "\n".join(json.dumps(r) for r in (document, trajectory)).encode()
    mutation = "mutation($file: Upload!) { ingestFile(file: $file) { __typename ... on Job { id } } }"
    job = gql.upload(mutation, "memories.jsonl", body, "application/x-ndjson")["ingestFile"]
    assert job["__typename"] == "Job"
    done = gql.wait_for_job(job["id"])
    assert done["counts"]["sources"] == 2 and done["counts"]["prescriptions"] >= 1


def test_an_uploaded_file_that_is_not_text_is_refused_and_writes_nothing(
    gql: GraphQL, driver: neo4j.Driver, space: str
) -> None:
    mutation = "mutation($file: Upload!) { ingestFile(file: $file) { __typename ... on InvalidInput { problems } } }"
    refused = gql.upload(mutation, "memories.jsonl", b"\xff\xfe\x00binary", "application/octet-stream")
    assert refused["ingestFile"] == {"__typename": "InvalidInput", "problems": ["file: not UTF-8 text"]}
    assert set(label_counts(driver, space)) <= {"Space", "ApiKey"}


def test_a_prescription_names_the_intent_it_solves(gql: GraphQL, trajectory: dict[str, Any]) -> None:
    """`intentId` and `intent` follow the SOLVES edge (they were "" and null: the intent is an edge, not a property)."""
    gql.ingest([trajectory])
    items = gql(operation("recall"), {"query": "How do I find ingredients for pasta?", "memoryTypes": ["PROCEDURAL"]})
    prescription_id = items["recall"]["items"][0]["id"]
    node = gql(
        "query($id: ID!) { node(id: $id) { ... on Prescription { intentId intent { id text } } } }",
        {"id": prescription_id},
    )["node"]
    # The trajectory's task: its subgoals are parts of the one procedure (test_procedures_whole.py).
    assert node["intentId"] and node["intent"] == {"id": node["intentId"], "text": "prepare dinner"}


FACT_TOLD = (
    ("porto", "2025-03-01T10:00:00Z", "I live in Porto and work at a bakery near the station."),
    ("graz", "2025-09-10T10:00:00Z", "Big news: I moved from Porto to Graz last month."),
    ("rain", "2025-09-11T10:00:00Z", "It rained a lot this week, the garden loved it."),
)


def test_a_memory_that_is_a_fact_shows_its_subject_attribute_and_value(gql: GraphQL) -> None:
    """Lena's home moved from Porto to Graz: each of the two memories is a fact of the slot `home` (her name as the
    app gave it for "I", the speaker), Porto superseded by Graz when the move began; a statement that is no fact and an
    episode have `fact: null`. Listing, opening and the history read the fact with the memory, in one statement."""
    for id, at, text in FACT_TOLD:
        job = gql(operation("remember"), {"text": text, "at": at, "session": id, "id": id, "user": "lena"})["remember"]
        assert job["__typename"] == "Job", job
        gql.wait_for_job(job["id"], timeout_s=600)  # a shared worker may be busy

    variables = {"user": "lena", "kinds": ["PROPOSITION", "EPISODE"], "includeSuperseded": True, "first": 50}
    answer = gql.raw(operation("memories"), variables).json()
    assert answer["extensions"]["cost"]["neo4jQueries"] == 1, answer
    memories = [edge["node"] for edge in answer["data"]["memories"]["edges"]]
    homes = {m["fact"]["value"]: m for m in memories if m["fact"] and m["fact"]["attribute"] == "home"}
    assert set(homes) == {"Porto", "Graz"}, memories
    graz, porto = homes["Graz"], homes["Porto"]
    assert graz["fact"]["subject"].lower() == "lena" and porto["fact"]["subject"].lower() == "lena"
    assert graz["fact"] | {"subject": "lena"} == {
        "subject": "lena", "attribute": "home", "value": "Graz", "valueType": "GPE", "aspect": "state",
        "polarity": True, "ends": ["Porto"],
    }  # fmt: skip
    assert (graz["status"], graz["validTo"]) == ("active", None) and graz["at"].startswith("2025-08-01")
    assert porto["status"] == "superseded" and porto["validTo"] == graz["at"]  # ended when the move began
    assert porto["at"].startswith("2025-03-01") and porto["fact"]["ends"] == []
    assert any(m["fact"] and m["fact"]["attribute"] == "employer" for m in memories)  # the bakery, a fact too
    rain = [m for m in memories if m["kind"] == "PROPOSITION" and "rained" in m["text"]]
    assert rain and all(m["fact"] is None for m in rain), rain  # no one's attribute
    episodes = [m for m in memories if m["kind"] == "EPISODE"]
    assert len(episodes) == 3 and all(m["fact"] is None for m in episodes)

    opened = gql(operation("memory"), {"id": porto["id"], "user": "lena"})["node"]
    assert opened["__typename"] == "Proposition" and opened["status"] == "SUPERSEDED"
    assert opened["fact"] == porto["fact"] and opened["validTo"] == porto["validTo"]
    assert opened["supersededBy"] == graz["id"]
    assert gql(operation("memory"), {"id": graz["id"], "user": "lena"})["node"]["fact"] == graz["fact"]
    assert gql(operation("memory"), {"id": rain[0]["id"], "user": "lena"})["node"]["fact"] is None

    answer = gql.raw(operation("history"), {"propositionId": graz["id"], "user": "lena"}).json()
    assert answer["extensions"]["cost"]["neo4jQueries"] == 1, answer
    history = answer["data"]["history"]
    assert history["currentId"] == graz["id"]
    step = next(s for s in history["replaced"] if s["propositionId"] == porto["id"])
    assert (step["reason"], step["fact"], step["validTo"]) == ("changed", porto["fact"], porto["validTo"])
