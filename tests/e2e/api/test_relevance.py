"""Honest answers through the GraphQL API (docs/relevance.md): every recalled item carries a calibrated relevance; a
question about what was never said gets no item and a reason naming the concept memory lacks, at the server's default
minRelevance, while an answerable question in the same space is still answered. Real worker, Neo4j and embeddings."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.graphql_client import GraphQL, operation

# Priya talks about tennis and her dog, never about films.
PRIYA: dict[str, Any] = {
    "type": "conversation",
    "id": "priya-chat",
    "title": "Priya and Sam",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2024-05-04T18:00:00Z",
            "turns": [
                {"speaker": "Priya", "id": "s1-1", "text": "I play tennis every Saturday morning at the club."},
                {"speaker": "Sam", "id": "s1-2", "text": "Nice! Who do you play with?"},
                {"speaker": "Priya", "id": "s1-3", "text": "Usually with my neighbour Ravi, he has a wicked serve."},
                {"speaker": "Sam", "id": "s1-4", "text": "And how is the puppy doing?"},
                {
                    "speaker": "Priya",
                    "id": "s1-5",
                    "text": "Biscuit is great, my beagle chews every tennis ball he finds.",
                },
            ],
        },
        {
            "id": "s2",
            "started_at": "2024-05-11T18:00:00Z",
            "turns": [
                {"speaker": "Sam", "id": "s2-1", "text": "Did you win on Saturday?"},
                {"speaker": "Priya", "id": "s2-2", "text": "I won in three sets, my backhand finally works."},
                {"speaker": "Priya", "id": "s2-3", "text": "I take Biscuit to the vet on Monday for his vaccinations."},
            ],
        },
    ],
}
UNASKED = "What is Priya's favourite movie?"
REFUSED = """
query($query: String!, $minRelevance: Float) {
  recall(query: $query, minRelevance: $minRelevance) { __typename ... on UserError { message } }
}
"""


def recall(gql: GraphQL, query: str, **variables: Any) -> dict[str, Any]:
    result = gql(operation("recall"), {"query": query, **variables})["recall"]
    assert result["__typename"] == "Recall", result
    return result  # type: ignore[no-any-return]


FITTED = 0.375  # the minimum fitted on LongMemEval development questions (docs/relevance.md; the default is 0, off)


@pytest.fixture()
def priya(gql: GraphQL) -> GraphQL:
    gql.ingest([PRIYA])
    return gql


def test_a_question_about_what_was_never_said_gets_no_item_and_a_reason(priya: GraphQL) -> None:
    result = recall(priya, UNASKED, minRelevance=FITTED)
    assert result["items"] == [] and result["sources"] == [] and result["tokens"] == 0
    assert result["reason"].startswith("nothing relevant")
    assert "'favourite movie'" in result["reason"]  # the question's concept no key of the space matches
    relevance = next(step for step in result["trace"] if step["step"] == "relevance")["detail"]
    assert relevance["missing"] == ["favourite movie"] and "Priya" in relevance["matched"]
    # It is the cut-off that empties the answer: with no minimum, the tennis and the dog come back, all low.
    everything = recall(priya, UNASKED, minRelevance=0.0)
    assert everything["items"] and everything["reason"] is None
    best = max(item["relevance"] for item in everything["items"])
    assert best < min(step["detail"]["min_relevance"] for step in result["trace"] if step["step"] == "relevance")


def test_an_answerable_question_in_the_same_space_is_answered(priya: GraphQL) -> None:
    result = recall(priya, "What is the name of Priya's dog?", minRelevance=FITTED)
    assert result["reason"] is None and result["items"]
    assert any("Biscuit" in item["text"] for item in result["items"][:3])
    assert all(0.0 <= item["relevance"] <= 1.0 for item in result["items"])
    relevances = [item["relevance"] for item in result["items"]]
    minimum = next(step for step in result["trace"] if step["step"] == "relevance")["detail"]["min_relevance"]
    assert max(relevances) >= minimum  # the best item passes: the ranking is returned


def test_a_near_concept_is_named_with_what_memory_holds(priya: GraphQL) -> None:
    result = recall(priya, "How often does Priya play table tennis?", minRelevance=1.0)
    assert result["items"] == []
    missing, held = result["reason"].split("no concept in memory matches", 1)[1].split("(memory holds", 1)
    assert "table tennis" in missing and "tennis" in held  # a key with "tennis", never "table tennis"


# Two users of one space: only Ana ever mentions Sacramento.
TRIPS: list[dict[str, Any]] = [
    {
        "type": "conversation",
        "id": f"{user}-trips",
        "user": user,
        "sessions": [{"id": "s1", "started_at": "2024-06-01T09:00:00Z", "turns": turns}],
    }
    for user, turns in (
        ("ana", [{"speaker": "Ana", "id": "a1", "text": "I booked an Airbnb in Sacramento for the conference."}]),
        ("ben", [{"speaker": "Ben", "id": "b1", "text": "I booked an Airbnb in San Francisco for my sister's visit."}]),
    )
]


def test_a_name_nothing_in_the_scope_mentions_gets_nothing_at_the_default_minimum(gql: GraphQL) -> None:
    for record in TRIPS:  # one user per request
        gql.ingest([record])
    question = "When did I book the Airbnb in Sacramento?"
    ana = recall(gql, question, user="ana")
    assert ana["reason"] is None and "Sacramento" in ana["items"][0]["text"]
    # Ben's memory holds an Airbnb booking, but in San Francisco: nothing of his mentions Sacramento.
    ben = recall(gql, question, user="ben")
    assert ben["items"] == [] and ben["reason"] == "nothing relevant: nothing in memory mentions 'Sacramento'"
    relevance = next(step for step in ben["trace"] if step["step"] == "relevance")["detail"]
    assert relevance["unmentioned"] == ["Sacramento"]
    # What Ben did say is answered, and a name that only speaks (Ben is never mentioned in a text) counts as said.
    assert recall(gql, "When did Ben book the Airbnb in San Francisco?", user="ben")["items"]
    # A long name misspelt by one letter is still what Ana said (looked up within one edit), and still not Ben's.
    typo = "When did I book the Airbnb in Sacramentto?"
    assert "Sacramento" in recall(gql, typo, user="ana")["items"][0]["text"]
    assert recall(gql, typo, user="ben")["reason"] == "nothing relevant: nothing in memory mentions 'Sacramentto'"


def test_a_name_only_a_documents_title_holds_is_mentioned(gql: GraphQL) -> None:
    handbook = {"type": "document", "id": "handbook", "title": "Harbor Lab handbook", "text": "Badges are at the desk."}
    gql.ingest([handbook])
    assert recall(gql, "Where are the badges at Harbor?")["items"]
    assert recall(gql, "Where are the badges at Quayside?")["reason"] == (
        "nothing relevant: nothing in memory mentions 'Quayside'"
    )


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_min_relevance_outside_0_1_is_refused_naming_the_field(gql: GraphQL, bad: float) -> None:
    result = gql(REFUSED, {"query": "anything", "minRelevance": bad})["recall"]
    # Below the least allowed is malformed; above the greatest, more than the server gives (graph/recall/arguments.py).
    assert result["__typename"] == ("InvalidInput" if bad < 0 else "OverBudget"), result
    assert f"minRelevance must be between 0 and 1, got {bad}" in result["message"], result
