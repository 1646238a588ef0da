"""Proactive recall through the GraphQL API (real worker, Neo4j, Redis, embedder; issue 45): `associate` brings up
what a user shared before when a remark, not a question, touches it, says why, brings up nothing (with a reason) for
a remark memory has nothing on, never brings up superseded knowledge nor another user's memory, and answers bad
input plainly without writing anything."""

from __future__ import annotations

from typing import Any

from app.api.services import ApiServices
from graph.consolidation.run import ConsolidationOptions, consolidate
from graph.recall.associate.models import MAX_UTTERANCE_CHARS
from tests.support.graphql_client import GraphQL, operation
from tests.support.tom_and_priya import TOM_AND_PRIYA

# Mia's chats, on her clock (+08:00): her Wednesday-evening habit, and an unrelated later session.
MIA: dict[str, Any] = {
    "type": "conversation",
    "id": "mia-kitchen",
    "user": "mia",
    "sessions": [
        {
            "id": "wed",
            "started_at": "2024-03-06T19:45:00+08:00",
            "turns": [
                {"speaker": "Mia", "id": "w1", "text": "Finally home after revising the proposal all day."},
                {"speaker": "Mia", "id": "w2", "text": "Every Wednesday after work I run a clear-the-fridge challenge: "
                 "I turn the leftover scraps into a fusion dish."},
                {"speaker": "Assistant", "id": "w3", "text": "What are you making from today's leftovers?"},
                {"speaker": "Mia", "id": "w4", "text": "Salmon and celery with my homemade chili oil, and I write "
                 "every improvised recipe in my recipe notebook."},
            ],
        },
        {
            "id": "sat",
            "started_at": "2024-03-16T10:00:00+08:00",
            "turns": [
                {"speaker": "Mia", "id": "s1", "text": "I repotted the monstera on the balcony this morning."},
                {"speaker": "Assistant", "id": "s2", "text": "Did it need a bigger pot?"},
            ],
        },
    ],
}  # fmt: skip
LEO: dict[str, Any] = {
    "type": "conversation",
    "id": "leo-music",
    "user": "leo",
    "sessions": [
        {
            "id": "m1",
            "started_at": "2024-03-06T20:00:00+08:00",
            "turns": [{"speaker": "Leo", "id": "l1", "text": "I practise the cello every evening before dinner."}],
        }
    ],
}
WEDNESDAY_AGAIN = "It's Wednesday night again, and I'm wondering what's left in the fridge."
NO_PRONOUN = "Wednesday night again: leftovers in the fridge to use up."
LATER_WEDNESDAY = "2024-04-03T21:00:00+08:00"
UNRELATED = "Quantum chromodynamics describes how gluons bind quarks inside protons."


def _associate(gql: GraphQL, utterance: str, **extra: Any) -> dict[str, Any]:
    result = gql(operation("associate"), {"utterance": utterance, "now": LATER_WEDNESDAY, **extra})["associate"]
    return result  # type: ignore[no-any-return]


def _surfaced(result: dict[str, Any]) -> list[str]:
    assert result["__typename"] == "Associations", result
    return [found["item"]["text"] for found in result["associations"]]


def test_a_remark_brings_up_what_the_user_shared_with_why_and_nothing_else(gql: GraphQL) -> None:
    gql.ingest([MIA], timeout_s=900)  # a shared worker may be busy
    gql.ingest([LEO], timeout_s=900)  # one user per request
    result = _associate(gql, WEDNESDAY_AGAIN, user="mia")
    surfaced = _surfaced(result)
    first = result["associations"][0]
    assert "fridge" in first["item"]["text"].lower(), surfaced
    assert first["item"]["provenance"][0]["externalId"] == "w2"
    kinds = {path["kind"] for path in first["why"]}
    assert kinds & {"TIME", "CONCEPT"}, first["why"]  # the graph's paths, not only wording
    assert any(
        path["kind"] == "TIME" and "Wednesday" in path["detail"] for f in result["associations"] for path in f["why"]
    )
    steps = [step["step"] for step in result["trace"]]
    assert {"recurring", "abstract", "bar", "surface"} <= set(steps)
    unrelated_session = [f for f in result["associations"] if "monstera" in f["item"]["text"]]
    assert unrelated_session == [], result["trace"]  # nothing of the other session bears on this
    assert result["reason"] is None

    # Said by Mia (as she speaks in memory): her own words first, and the trace says whom it searched.
    said_by_mia = _associate(gql, WEDNESDAY_AGAIN, user="mia", speaker="Mia")
    own = said_by_mia["associations"][0]["item"]
    assert own["provenance"][0]["speaker"] == "Mia" and "fridge" in own["text"].lower(), _surfaced(said_by_mia)
    participants = next(step for step in said_by_mia["trace"] if step["step"] == "participants")
    assert participants["detail"]["meant"] == ["Mia"]
    assert "participants" not in steps  # no speaker: nobody's words preferred
    # A remark that says no "I" is still its speaker's: her words are searched all the same.
    impersonal = _associate(gql, NO_PRONOUN, user="mia", speaker="Mia")
    own = impersonal["associations"][0]["item"]
    assert own["provenance"][0]["speaker"] == "Mia", _surfaced(impersonal)
    participants = next(step for step in impersonal["trace"] if step["step"] == "participants")
    assert participants["detail"]["meant"] == ["Mia"]

    # Another user of the same space: Mia's memory never surfaces for Leo, even for the very same remark.
    for_leo = _surfaced(_associate(gql, WEDNESDAY_AGAIN, user="leo"))
    assert not any("fridge" in text.lower() or "recipe" in text.lower() for text in for_leo), for_leo
    # And the space's shared memory holds neither.
    assert _surfaced(_associate(gql, WEDNESDAY_AGAIN)) == []

    # A remark nothing in memory bears on: nothing, and why.
    unrelated = _associate(gql, UNRELATED, user="mia")
    assert _surfaced(unrelated) == []
    assert "nothing in memory bears on this utterance" in unrelated["reason"]


def test_superseded_knowledge_is_never_brought_up(gql: GraphQL, services: ApiServices, space: str) -> None:
    gql.ingest([{**TOM_AND_PRIYA, "sessions": TOM_AND_PRIYA["sessions"][:1]}], timeout_s=900)
    first = _associate(gql, "Tom is settling into his new city, Lisbon.")
    lisbon = next(f["item"] for f in first["associations"] if "moved to Lisbon" in f["item"]["text"])
    gql.ingest([TOM_AND_PRIYA], timeout_s=900)
    consolidate(space, driver=services.driver, options=ConsolidationOptions(revisions=True))  # links the later move
    after = _associate(gql, "Tom is settling into his new city, Lisbon.")
    ids = [f["item"]["id"] for f in after["associations"]]
    assert lisbon["id"] not in ids, _surfaced(after)
    assert any("Madrid" in text for text in _surfaced(after))  # the current statement stands in its place


def test_bad_input_is_answered_plainly_and_writes_nothing(gql: GraphQL) -> None:
    before = gql("{ stats { episodes propositions concepts } }")["stats"]
    empty = _associate(gql, "   ")
    assert empty["__typename"] == "InvalidInput" and "utterance" in empty["problems"][0]
    too_long = _associate(gql, "word " * (MAX_UTTERANCE_CHARS // 5 + 1))
    assert too_long["__typename"] == "OverBudget" and too_long["limit"] == MAX_UTTERANCE_CHARS
    over_limit = _associate(gql, WEDNESDAY_AGAIN, limit=500)
    assert over_limit["__typename"] == "OverBudget" and over_limit["requested"] == 500
    errors = gql.errors(operation("associate"), {"utterance": WEDNESDAY_AGAIN, "now": "not a time"})
    assert errors and any(word in errors[0]["message"].lower() for word in ("now", "datetime")), errors
    assert gql("{ stats { episodes propositions concepts } }")["stats"] == before
