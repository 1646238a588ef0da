"""Corrections, fact history and consolidation through the API."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.support.graphql_client import GraphQL, operation


def test_correct_supersedes_and_keeps_history(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    old = gql(operation("recall"), {"query": "adoption agencies"})["recall"]["items"][0]
    text = "Caroline chose an adoption agency in Portland."
    before_correction = datetime.now(UTC).isoformat()
    corrected = gql(operation("correct"), {"propositionId": old["id"], "text": text, "reason": "user said so"})[
        "correct"
    ]
    assert corrected["__typename"] == "Corrected" and corrected["created"] is True
    assert corrected["proposition"]["text"] == text and corrected["proposition"]["status"] == "ACTIVE"
    assert corrected["supersedes"] == {"id": old["id"], "status": "SUPERSEDED"}
    # Proven by the correction itself, not by the turn that proved the statement it replaced.
    assert [p["externalId"] for p in corrected["proposition"]["provenance"]] == [f"correction/{old['id']}"]

    history = gql(operation("history"), {"propositionId": corrected["proposition"]["id"]})["history"]
    assert [step["propositionId"] for step in history["replaced"]] == [old["id"]]
    assert history["replaced"][0]["reason"] and history["replaced"][0]["text"]
    current = gql(operation("history"), {"propositionId": old["id"]})["history"]["currentId"]
    assert current == corrected["proposition"]["id"]
    # The old fact's page (the inspector's): superseded, its validity ended, still proven by its turn.
    page = gql(operation("memory"), {"id": old["id"]})["node"]
    assert page["__typename"] == "Proposition" and page["status"] == "SUPERSEDED" and page["validTo"]
    assert [turn["externalId"] for turn in page["provenance"]] == ["D2:1"] and page["provenance"][0]["source"]

    ids = {i["id"] for i in gql(operation("recall"), {"query": "adoption agency"})["recall"]["items"]}
    assert corrected["proposition"]["id"] in ids and old["id"] not in ids
    # asOf a time before the correction, memory answers as it did then.
    then = gql(operation("recall"), {"query": "adoption agency", "asOf": before_correction})["recall"]["items"]
    assert old["id"] in {i["id"] for i in then} and corrected["proposition"]["id"] not in {i["id"] for i in then}
    # The same correction again changes nothing; correcting the superseded one is refused with the reason.
    assert (
        gql(operation("correct"), {"propositionId": old["id"], "text": text, "reason": "user said so"})["correct"][
            "created"
        ]
        is False
    )
    stale = gql(operation("correct"), {"propositionId": old["id"], "text": "Something else entirely."})["correct"]
    assert stale["__typename"] == "InvalidInput" and "superseded" in stale["message"]
    missing = gql(operation("correct"), {"propositionId": "prop_00000000000000000000", "text": "x"})["correct"]
    assert missing["__typename"] == "NotFound"
    # The SUPERSEDES link can be walked, its time as ISO 8601 text (it was a Neo4j DateTime: an internal error).
    new_id = corrected["proposition"]["id"]
    links = gql(operation("follow"), {"nodeId": new_id, "linkType": "SUPERSEDES"})["follow"]["links"]
    assert [(link["node"]["id"], link["outgoing"]) for link in links] == [(old["id"], True)]
    times = [value for value in links[0]["properties"].values() if isinstance(value, str) and value[:2] == "20"]
    assert times and all(datetime.fromisoformat(value) >= datetime.fromisoformat(before_correction) for value in times)


TIMES = """
query($id: ID!) { node(id: $id) { ... on Proposition { status validFrom validTo recordedAt expiredAt } } }
"""


def test_a_correction_ends_the_old_fact_in_the_world_not_on_the_server_clock(
    gql: GraphQL, conversation: dict[str, Any]
) -> None:
    """validTo is when the corrected statement starts to hold: its validFrom when given (the world's time of the
    change), else when the correction was made; never a validity of zero length (the old fact's own validFrom)."""
    gql.ingest([conversation])
    items = gql(operation("recall"), {"query": "adoption agencies"})["recall"]["items"]
    adoption = next(item for item in items if "adoption" in item["text"])
    told = gql(TIMES, {"id": adoption["id"]})["node"]
    assert told["validFrom"] is not None and told["validFrom"][:4] == "2023"  # the conversation's time, not today
    text = "Caroline chose an adoption agency in Portland."
    before = datetime.now(UTC)
    corrected = gql(operation("correct"), {"propositionId": adoption["id"], "text": text})["correct"]
    after = datetime.now(UTC)
    old = gql(TIMES, {"id": adoption["id"]})["node"]
    new = gql(TIMES, {"id": corrected["propositionId"]})["node"]
    # Without a time, the change is dated when the correction was made: the old fact held from 2023 until then.
    assert old["status"] == "SUPERSEDED" and old["validTo"] == new["validFrom"] and old["validTo"] != old["validFrom"]
    assert before - timedelta(seconds=5) <= datetime.fromisoformat(old["validTo"]) <= after + timedelta(seconds=5)
    assert datetime.fromisoformat(old["expiredAt"]).year >= datetime.now(UTC).year  # the graph's own time
    # With a time (when the new fact became true), the old fact ends there.
    moved = gql(operation("recall"), {"query": "charity race"})["recall"]["items"]
    race = next(item for item in moved if "race" in item["text"])
    when = "2023-05-20T00:00:00+00:00"
    fixed = gql(
        operation("correct"),
        {"propositionId": race["id"], "text": "Melanie ran a charity race for a hospital.", "validFrom": when},
    )["correct"]
    assert fixed["__typename"] == "Corrected"
    assert datetime.fromisoformat(gql(TIMES, {"id": race["id"]})["node"]["validTo"]) == datetime.fromisoformat(when)
    assert datetime.fromisoformat(gql(TIMES, {"id": fixed["propositionId"]})["node"]["validFrom"]) == (
        datetime.fromisoformat(when)
    )


def test_consolidate_runs_on_the_worker_and_reports(gql: GraphQL, conversation: dict[str, Any]) -> None:
    gql.ingest([conversation])
    queued = gql("mutation { consolidate { id state } }")["consolidate"]
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status = gql(
            "query($id: ID!) { consolidation(id: $id) { __typename ... on Consolidation { state report } } }",
            {"id": queued["id"]},
        )["consolidation"]
        if status["state"] in ("SUCCESS", "FAILURE"):
            break
        time.sleep(0.5)
    assert status["state"] == "SUCCESS", status
    report = status["report"]["report"]
    assert report["before"]["active_propositions"] >= report["after"]["active_propositions"] > 0
    dimensions = gql(operation("dimensions"))["dimensions"]
    assert dimensions["totalCount"] == report["after"]["dimensions"] >= 1
    first = dimensions["edges"][0]["node"]
    assert first["conceptCount"] >= len(first["concepts"]["edges"]) >= 1
    unknown = gql('{ consolidation(id: "nope") { __typename } }')["consolidation"]
    assert unknown["__typename"] == "NotFound"
