"""Scopes and the app's own ids through the GraphQL API (real worker, Neo4j, Redis): each user's memory apart, one
line to remember, forget and list by the ids the app gave, export -> forget -> import gives the same recall."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from app.api.services import ApiServices
from engram.settings import EngramSettings
from tests.support.graphql_client import GraphQL, operation

REMEMBER = operation("remember")
RECALL = """
query($query: String!, $user: String) {
  recall(query: $query, user: $user) {
    ... on Recall { items { id kind text provenance { externalId } } }
  }
}
"""
MEMORIES = operation("memories")
SOURCES = operation("sources")
FORGET = """
mutation($input: ForgetInput, $user: String) {
  forget(input: $input, user: $user) {
    __typename
    ... on Forgotten { episodeIds sourceIds knowledgeIds notFound episodesRemoved }
    ... on InvalidInput { message problems }
  }
}
"""
EXPORT = operation("export")
INGEST_PAYLOAD = """
mutation($payload: String!) {
  ingest(input: {payload: $payload}) {
    __typename
    ... on Job { id }
    ... on InvalidInput { problems }
  }
}
"""


def remember(gql: GraphQL, text: str, **args: Any) -> dict[str, Any]:
    job = gql(REMEMBER, {"text": text, **args})["remember"]
    assert job["__typename"] == "Job", job
    gql.wait_for_job(job["id"])
    return job  # type: ignore[no-any-return]


def texts(gql: GraphQL, query: str, user: str | None) -> list[str]:
    return [item["text"] for item in gql(RECALL, {"query": query, "user": user})["recall"]["items"]]


def test_two_users_of_one_space_never_see_each_others_memories(gql: GraphQL) -> None:
    remember(gql, "I moved to Lisbon and I work as a nurse at the Santa Maria hospital.", user="alice")
    remember(gql, "My favourite food is sushi and I play the cello in an orchestra.", user="bob")

    alice = texts(gql, "Where does alice work?", "alice") + texts(gql, "What is alice's favourite food?", "alice")
    bob = texts(gql, "Where does bob work?", "bob") + texts(gql, "What is bob's favourite food?", "bob")
    assert any("Lisbon" in t or "nurse" in t for t in alice) and not any("sushi" in t or "cello" in t for t in alice)
    assert any("sushi" in t or "cello" in t for t in bob) and not any("Lisbon" in t or "nurse" in t for t in bob)
    assert texts(gql, "nurse sushi cello Lisbon", None) == []  # the space's shared memory holds neither

    listed = gql(MEMORIES, {"user": "bob", "kinds": ["PROPOSITION", "EPISODE"], "first": 50})["memories"]
    assert listed["totalCount"] > 0
    assert not any("Lisbon" in e["node"]["text"] or "nurse" in e["node"]["text"] for e in listed["edges"])
    alice_item = gql(RECALL, {"query": "Where does alice work?", "user": "alice"})["recall"]["items"][0]["id"]
    assert gql("query($id: ID!, $user: String) { node(id: $id, user: $user) { id } }",
               {"id": alice_item, "user": "bob"})["node"] is None  # fmt: skip
    assert gql("query($id: ID!, $user: String) { node(id: $id, user: $user) { id } }",
               {"id": alice_item, "user": "alice"})["node"] == {"id": alice_item}  # fmt: skip
    exported = gql(EXPORT, {"user": "bob", "first": 50})["export"]
    assert "sushi" in exported["jsonl"] and "Lisbon" not in exported["jsonl"]
    users = gql(operation("users"))["users"]
    assert sorted(u["user"] for u in users) == ["alice", "bob"]


def test_one_request_reads_one_users_memory(gql: GraphQL) -> None:
    errors = gql.errors('{ a: stats(user: "alice") { propositions } b: stats(user: "bob") { propositions } }')
    assert "one user per request" in errors[0]["message"]


def test_ingest_names_the_ids_it_writes_and_forget_takes_the_apps_own(gql: GraphQL) -> None:
    chat = {
        "type": "conversation", "id": "client-chat", "user": "tom",
        "sessions": [
            {"id": "s1", "turns": [{"speaker": "Tom", "text": "I adopted a grey cat named Miso.", "id": "s1-1"}]},
            {"id": "s2", "turns": [
                {"speaker": "Tom", "text": "I started learning the violin last spring.", "id": "s2-1"},
                {"speaker": "Tom", "text": "I ran a half marathon in Porto in October.", "id": "s2-3"},
            ]},
        ],
    }  # fmt: skip
    queued = gql("mutation($r: JSON!) { ingest(input: {records: $r}) { ... on Job { id sources { id externalId "
                 "episodes { id externalId } } } } }", {"r": [chat]})["ingest"]  # fmt: skip
    assert [s["externalId"] for s in queued["sources"]] == ["client-chat/s1", "client-chat/s2"]
    assert [e["externalId"] for e in queued["sources"][1]["episodes"]] == ["s2-1", "s2-3"]
    gql.wait_for_job(queued["id"])

    gone = gql(FORGET, {"input": {"episodeIds": ["s2-3", "no-such-turn"]}, "user": "tom"})["forget"]
    assert gone["episodeIds"] == [queued["sources"][1]["episodes"][1]["id"]] and gone["notFound"] == ["no-such-turn"]
    assert not any("marathon" in t for t in texts(gql, "Did Tom run a marathon?", "tom"))

    gone = gql(FORGET, {"input": {"sourceIds": ["client-chat"]}, "user": "tom"})["forget"]
    assert sorted(gone["sourceIds"]) == sorted(s["id"] for s in queued["sources"])
    assert gql(SOURCES, {"user": "tom"})["sources"]["totalCount"] == 0


def test_a_turn_id_in_several_sources_is_refused_not_guessed(gql: GraphQL) -> None:
    for record in ("a", "b"):
        remember(gql, f"Note {record}: the meeting room is on floor {ord(record)}.", user="u", session=record, id="t1")
    answer = gql(FORGET, {"input": {"episodeIds": ["t1"]}, "user": "u"})["forget"]
    assert answer["__typename"] == "InvalidInput" and "several sources" in answer["message"]
    answer = gql(FORGET, {"input": {"episodeIds": ["remember/a/t1"]}, "user": "u"})["forget"]
    assert len(answer["episodeIds"]) == 1
    assert gql(SOURCES, {"user": "u"})["sources"]["totalCount"] == 1


def test_forget_a_session_a_metadata_value_or_a_whole_user(gql: GraphQL) -> None:
    remember(
        gql, "I booked a flight to Oslo for the conference.", user="kim", session="work", metadata={"topic": "trip"}
    )
    remember(gql, "My sister Ana got married in June.", user="kim", session="home", metadata={"topic": "family"})
    remember(gql, "My brother plays drums in a jazz band.", user="lee")
    by_meta = gql(MEMORIES, {"user": "kim", "kinds": ["EPISODE"], "metadata": {"topic": "family"}, "first": 10})
    assert [e["node"]["text"] for e in by_meta["memories"]["edges"]] == ["kim: My sister Ana got married in June."]

    gone = gql(FORGET, {"input": {"session": "work"}, "user": "kim"})["forget"]
    assert len(gone["episodeIds"]) == 1
    assert not any("Oslo" in t for t in texts(gql, "Where is the flight to?", "kim"))
    assert any("Ana" in t for t in texts(gql, "Who got married?", "kim"))

    gone = gql(FORGET, {"user": "kim"})["forget"]
    assert gone["episodesRemoved"] == 1
    assert texts(gql, "Who got married?", "kim") == []
    assert any("drums" in t for t in texts(gql, "What does his brother play?", "lee"))  # another user untouched


def test_export_forget_import_gives_the_same_recall(gql: GraphQL) -> None:
    records = [
        {"type": "conversation", "id": "c1", "user": "zoe", "agent": "coach", "metadata": {"plan": "gold"},
         "sessions": [{"id": "s1", "started_at": "2024-03-01T10:00:00Z", "turns": [
             {"speaker": "Zoe", "text": "I want to run a marathon in under four hours.", "id": "t1"},
             {"speaker": "Coach", "text": "Then run 50 km a week and do one long run on Sundays.", "id": "t2",
              "metadata": {"plan": "gold", "tip": True}},
         ]}]},
        {"type": "document", "id": "d1", "user": "zoe", "title": "Zoe's training log", "text":
            "Week one: three easy runs of 8 km.\n\nWeek two: a long run of 21 km on Sunday, knee felt sore."},
        {"type": "trajectory", "id": "tr1", "user": "zoe", "task": "Book a physiotherapy appointment",
         "steps": [{"action": "open the clinic website", "subgoal": "find a slot"},
                   {"action": "pick Tuesday 9:00 and confirm", "observation": "slot confirmed", "reward": 1.0}]},
    ]  # fmt: skip
    gql.ingest(records)
    questions = ["What is Zoe's marathon goal?", "How far was the long run?", "How do I book physiotherapy?"]
    before = {q: [i["id"] for i in gql(RECALL, {"query": q, "user": "zoe"})["recall"]["items"]] for q in questions}
    assert all(before.values())

    lines: list[str] = []
    after = None
    while True:
        page = gql(EXPORT, {"user": "zoe", "first": 2, "after": after})["export"]
        lines += page["jsonl"].splitlines()
        after = page["endCursor"]
        if after is None:
            break
    assert len(lines) == 3 and page["totalSources"] == 3
    assert gql(FORGET, {"user": "zoe"})["forget"]["__typename"] == "Forgotten"
    assert gql(SOURCES, {"user": "zoe"})["sources"]["totalCount"] == 0

    job = gql(INGEST_PAYLOAD, {"payload": "\n".join(lines)})["ingest"]
    assert job["__typename"] == "Job", job
    gql.wait_for_job(job["id"])
    again = {q: [i["id"] for i in gql(RECALL, {"query": q, "user": "zoe"})["recall"]["items"]] for q in questions}
    assert again == before
    sources = {s["node"]["externalId"]: s["node"] for s in gql(SOURCES, {"user": "zoe"})["sources"]["edges"]}
    assert sources["c1/s1"]["metadata"] == {"plan": "gold"} and sources["c1/s1"]["session"] is None


def test_remember_splits_an_over_long_text_and_a_retry_writes_nothing_new(
    gql: GraphQL, services: ApiServices, driver: neo4j.Driver, space: str
) -> None:
    long_text = " ".join(f"Sentence {i} says the kettle number {i} is blue." for i in range(700))
    assert len(long_text) > 30_000
    job = remember(gql, long_text, user="pat", id="manual")
    episodes = job["sources"][0]["episodes"]
    assert len(episodes) > 1 and episodes[0]["externalId"] == "manual#0"
    remember(gql, "Pat's locker code is 4471.", user="pat", id="locker", at="2024-05-01T09:00:00Z")
    remember(gql, "Pat's locker code is 4471.", user="pat", id="locker", at="2024-05-01T09:00:00Z")
    listed = gql(MEMORIES, {"user": "pat", "kinds": ["EPISODE"], "first": 100})["memories"]
    assert listed["totalCount"] == len(episodes) + 1


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"text": "   "}, "text: empty"),
        ({"text": "hi", "metadata": {f"k{i}": i for i in range(17)}}, "metadata keys; at most 16"),
        ({"text": "hi", "metadata": {"bad key": 1}}, "metadata key 'bad key'"),
        ({"text": "hi", "metadata": {"k": "x" * 300}}, "at most 256"),
        ({"text": "hi", "metadata": {"k": {"nested": 1}}}, "a string, a number or a boolean"),
    ],
)
def test_bad_remember_input_names_the_field_and_writes_nothing(
    gql: GraphQL, variables: dict[str, Any], expected: str
) -> None:
    answer = gql(REMEMBER, {"user": "bad", **variables})["remember"]
    assert answer["__typename"] == "InvalidInput" and expected in " ".join(answer["problems"]), answer
    assert gql(SOURCES, {"user": "bad"})["sources"]["totalCount"] == 0


def test_bad_scope_arguments_are_refused(gql: GraphQL) -> None:
    assert "user: 1-200" in gql.errors('{ stats(user: "") { propositions } }')[0]["message"]
    refused = gql(FORGET, {"input": {"sourceIds": ["x"], "session": "s"}})["forget"]
    assert refused["__typename"] == "InvalidInput" and "not both" in refused["message"]
    assert gql(FORGET, {})["forget"]["__typename"] == "InvalidInput"  # never the whole shared memory by default
    empty = gql(EXPORT, {"user": "nobody", "first": 10})["export"]
    assert empty == {"jsonl": "", "records": 0, "sources": 0, "totalSources": 0, "endCursor": None}
    assert "metadata" in gql.errors("{ memories(metadata: {a: [1]}) { totalCount } }")[0]["message"]
    assert "admin key" in gql.errors(operation("delete_space"), {"name": "x"})[0]["message"]


def test_the_admin_deletes_a_space_with_every_users_memory(gql: GraphQL, space: str, settings: EngramSettings) -> None:
    remember(gql, "The spare key is under the blue flower pot.", user="ann")
    remember(gql, "The wifi password is on the fridge.")
    admin = settings.api.admin_key.get_secret_value()
    deleted = gql(operation("delete_space"), {"name": space}, key=admin)["deleteSpace"]
    assert {k: deleted[k] for k in ("__typename", "space", "users")} == {
        "__typename": "SpaceDeleted",
        "space": space,
        "users": 1,
    }
    assert deleted["episodesRemoved"] == 2 and deleted["stoppedJobIds"] == []  # both remembers had been written
    assert gql.raw(operation("users")).status_code == 401  # its keys went with it
    again = gql(operation("delete_space"), {"name": space}, key=admin)["deleteSpace"]
    assert again["__typename"] == "NotFound"


def test_recall_filtered_by_session_or_metadata_returns_only_what_they_prove(gql: GraphQL) -> None:
    remember(gql, "I parked the car on level 3 of the airport garage.", user="ivy", session="trip", metadata={"k": 1})
    remember(gql, "I parked the bike in the shed behind the house.", user="ivy", session="home", metadata={"k": 2})
    query = """query($q: String!, $session: String, $metadata: JSON) {
      recall(query: $q, user: "ivy", session: $session, metadata: $metadata) {
        ... on Recall { items { text provenance { text } } } } }"""
    both = gql(query, {"q": "Where did I park?"})["recall"]["items"]
    assert any("car" in i["text"] for i in both) and any("bike" in i["text"] for i in both)
    for variables, kept, dropped in (({"session": "home"}, "bike", "car"), ({"metadata": {"k": 1}}, "car", "bike")):
        items = gql(query, {"q": "Where did I park?", **variables})["recall"]["items"]
        shown = " ".join(i["text"] + " ".join(p["text"] for p in i["provenance"]) for i in items)
        assert kept in shown and dropped not in shown, (variables, shown)


def test_remembers_of_several_sessions_export_and_import_with_their_sessions(gql: GraphQL) -> None:
    remember(gql, "Standup notes: the release moves to Friday.", user="max", session="work", id="w1")
    remember(gql, "Buy oat milk and bread on the way home.", user="max", session="home", id="h1")
    jsonl = gql(EXPORT, {"user": "max", "first": 10})["export"]["jsonl"]
    assert len(jsonl.splitlines()) == 2  # one record per session scope, both of id 'remember'
    assert gql(FORGET, {"user": "max"})["forget"]["__typename"] == "Forgotten"
    job = gql(INGEST_PAYLOAD, {"payload": jsonl})["ingest"]
    assert job["__typename"] == "Job", job
    gql.wait_for_job(job["id"])
    for session, text in (("work", "release"), ("home", "oat milk")):
        listed = gql(MEMORIES, {"user": "max", "kinds": ["EPISODE"], "session": session, "first": 10})["memories"]
        assert [text in e["node"]["text"] for e in listed["edges"]] == [True], (session, listed)
