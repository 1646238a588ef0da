"""Aggregation over everything remembered, through the GraphQL API (real worker, Neo4j, embeddings): a user tells of
three runs on different days (one told again the next day) and of what they spent; recall counts the runs once each,
adds up the spending with its unit, compares the weeks, says when no amount was stated, and never counts another
user's memories (docs/aggregation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.graphql_client import GraphQL, operation

NOW = "2024-03-13T12:00:00Z"  # a Wednesday: "this week" began on Monday 11 March


def session(speaker: str, day: str, *lines: str) -> dict[str, Any]:
    turns = []
    for i, line in enumerate(lines):
        turns.append({"speaker": speaker, "id": f"{day}-{2 * i}", "text": line})
        turns.append({"speaker": "Coach", "id": f"{day}-{2 * i + 1}", "text": "Noted, thanks for telling me."})
    return {"id": day, "started_at": f"{day}T19:00:00Z", "turns": turns}


ANA: dict[str, Any] = {
    "type": "conversation",
    "id": "ana-training",
    "user": "ana",
    "sessions": [
        session(
            "Ana", "2024-03-04", "I went for a 5 km run along the river this morning.", "I spent $40 on a water bottle."
        ),
        session(
            "Ana",
            "2024-03-05",
            "I went for a 5 km run along the river yesterday.",  # Monday's run, told again
            "I went swimming at the lake after work.",
        ),
        session("Ana", "2024-03-07", "I went for an 8 km run in the park this morning.", "I spent $25 on energy gels."),
        session("Ana", "2024-03-12", "I went for a 10 km run with the club this morning."),
    ],
}
BEN: dict[str, Any] = {
    "type": "conversation",
    "id": "ben-training",
    "user": "ben",
    "sessions": [
        session("Ben", "2024-03-06", "I went for a 7 km run by the sea this morning.", "I spent $500 on a new bike."),
        session("Ben", "2024-03-08", "I went for a 7 km run by the sea this morning."),
    ],
}


@pytest.fixture()
def runners(gql: GraphQL) -> GraphQL:
    gql.ingest([ANA])
    gql.ingest([BEN])  # one user per request
    return gql


def recall(gql: GraphQL, query: str, user: str) -> dict[str, Any]:
    variables = {"query": query, "user": user, "asker": "Ana" if user == "ana" else "Ben", "now": NOW}
    result = gql(operation("recall"), variables)["recall"]
    assert result["__typename"] == "Recall", result
    return result  # type: ignore[no-any-return]


def test_counts_sums_weeks_and_no_number_where_none_is_stated(runners: GraphQL) -> None:
    runs = recall(runners, "How many times did I go running?", "ana")
    aggregate = runs["aggregate"]
    assert aggregate["kind"] == "count" and aggregate["count"] == 3
    assert (aggregate["value"], aggregate["valueFrom"]) == (3.0, "events")
    counted = {item["text"] for item in aggregate["items"]}
    assert all("run" in text for text in counted) and not any("swim" in text for text in counted)
    # Monday's run, told on Monday and again on Tuesday, is one event with the retelling folded into it.
    monday = [item for item in aggregate["items"] if item["at"].startswith("2024-03-04")]
    assert len(monday) == 1 and len(monday[0]["duplicates"]) == 1
    assert {p["externalId"] for p in monday[0]["provenance"]} <= {"2024-03-04-0", "2024-03-05-0"}
    assert sorted(item["quantity"] for item in aggregate["items"]) == [5.0, 8.0, 10.0]
    step = next(s for s in runs["trace"] if s["step"] == "aggregate")["detail"]
    assert step["count"] == 3 and step["events"] == 3 and step["speakers"] == ["Ana"]
    # The runs lead the items: what the figure counts is what the caller reads first.
    assert {i["id"] for i in runs["items"][:5]} & {i["id"] for i in aggregate["items"]}

    spent = recall(runners, "How much did I spend in total?", "ana")["aggregate"]
    assert spent["kind"] == "sum" and (spent["sum"], spent["unit"]) == (65.0, "USD")
    assert spent["units"] == [{"unit": "USD", "sum": 65.0, "count": 2}] and spent["reason"] is None
    assert (spent["value"], spent["valueUnit"], spent["valueFrom"]) == (65.0, "USD", "sum")
    # A comparison of two amounts is their difference, not their sum.
    more = recall(runners, "How much more did I spend on the water bottle than on energy gels?", "ana")["aggregate"]
    assert more["kind"] == "compare"
    assert (more["value"], more["valueUnit"], more["valueFrom"]) == (15.0, "USD", "difference")

    # Per week, from the events' dates in the graph.
    compared = recall(runners, "Did I run more this week than last week?", "ana")["aggregate"]
    assert compared["kind"] == "compare" and compared["period"] == "week"
    periods = {p["start"]: (p["count"], p["sums"]) for p in compared["periods"]}
    assert periods == {
        "2024-03-04": (2, [{"unit": "km", "sum": 13.0, "count": 2}]),
        "2024-03-11": (1, [{"unit": "km", "sum": 10.0, "count": 1}]),
    }

    # A number only where memory states one.
    swum = recall(runners, "How many km did I swim?", "ana")["aggregate"]
    assert swum["kind"] == "sum" and swum["count"] == 1
    assert swum["sum"] is None and swum["unit"] is None and swum["units"] == []
    assert swum["reason"] == "no quantity stated in the matching memories"
    nothing = recall(runners, "How many times did I go skydiving?", "ana")["aggregate"]
    assert nothing["count"] is None and nothing["sum"] is None and nothing["items"] == []
    assert nothing["value"] is None
    assert nothing["reason"].startswith(("no memory matches", "nothing relevant"))

    ordinary = recall(runners, "Where do I run with the club?", "ana")
    assert ordinary["aggregate"] is None and all(s["step"] != "aggregate" for s in ordinary["trace"])


def test_another_users_memories_are_never_counted(runners: GraphQL) -> None:
    ben = recall(runners, "How many times did I go running?", "ben")["aggregate"]
    assert ben["count"] == 2 and all("sea" in item["text"] for item in ben["items"])
    spent = recall(runners, "How much did I spend in total?", "ben")["aggregate"]
    assert (spent["sum"], spent["unit"]) == (500.0, "USD")
    ana = recall(runners, "How much did I spend in total?", "ana")["aggregate"]
    assert ana["sum"] == 65.0 and not any("bike" in item["text"] for item in ana["items"])
    assert recall(runners, "How many times did I go running?", "ana")["aggregate"]["count"] == 3


def test_a_count_of_what_memory_never_names_is_no_figure(runners: GraphQL) -> None:
    # Ana ran by the river and in the park, never in Zurich: no count (not 0, not her three runs), and the reason.
    zurich = recall(runners, "How many times did I go running in Zurich?", "ana")
    assert zurich["items"] == [] and zurich["reason"] == "nothing relevant: nothing in memory mentions 'Zurich'"
    aggregate = zurich["aggregate"]
    assert aggregate["count"] is None and aggregate["sum"] is None and aggregate["items"] == []
    assert aggregate["reason"] == zurich["reason"]


CLEO: dict[str, Any] = {
    "type": "conversation",
    "id": "cleo-errands",
    "user": "cleo",
    "sessions": [
        session(
            "Cleo", "2024-02-20", "I have baked sourdough bread at home 4 times now.", "I bought a wool coat for $200."
        ),
        session(
            "Cleo",
            "2024-03-01",
            "I spent $50 on a pair of hiking boots.",
            "I missed my bus by 10 minutes this morning and took a taxi, which cost me $15.",
        ),
        session(
            "Cleo",
            "2024-03-08",
            "I have baked sourdough bread at home 7 times now.",
            "My daily bus fare is $3.",
            "I spent $30 on a novel.",
        ),
    ],
}


def test_stated_counts_named_things_and_the_usual_unit(gql: GraphQL) -> None:
    gql.ingest([CLEO])

    def ask(query: str) -> dict[str, Any]:
        variables = {"query": query, "user": "cleo", "asker": "Cleo", "now": NOW}
        result = gql(operation("recall"), variables)["recall"]
        assert result["__typename"] == "Recall", result
        return result["aggregate"]  # type: ignore[no-any-return]

    # The memory states how many times: its latest statement is the answer, not the two tellings counted.
    baked = ask("How many times have I baked sourdough bread at home?")
    assert (baked["value"], baked["valueFrom"]) == (7.0, "stated")
    # Two things joined by "and": one amount each, not every purchase.
    spent = ask("What is the total amount I spent on the wool coat and the hiking boots?")
    assert (spent["value"], spent["valueUnit"], spent["valueFrom"]) == (250.0, "USD", "sum")
    # The turn also says 10 minutes ("I missed my bus by 10 minutes ... and took a taxi, which cost me $15"): its
    # facts are apart (the miss, the ride), and the ride is read in the comparison's usual unit (dollars): $15.
    more = ask("How much more did the taxi cost than my daily bus fare?")
    assert (more["value"], more["valueUnit"], more["valueFrom"]) == (12.0, "USD", "difference")
    taxi = next(item for item in more["items"] if "taxi" in item["text"])
    assert (taxi["quantity"], taxi["unit"]) == (15.0, "USD")
