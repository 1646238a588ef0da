"""A user's profile through the GraphQL API, on the real worker, Neo4j and Redis: Lena says where she lives and works,
in a later session that she moved from Porto to Graz; her profile's home is Graz now, with Porto before it (ended when
the move began), each told by its own turn. Another user of the space, and the same user in another space, see none
of it; bad names are refused with InvalidInput, nothing read."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from engram.scope import memory_space
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation

PROFILE = operation("profile")
REMEMBER = operation("remember")
EARLIER = ("I live in Porto and work at a bakery near the station.", "2025-03-01T10:00:00Z")
LATER = ("Big news: I moved from Porto to Graz last month, and I started at a shipping firm there.",
         "2025-09-10T10:00:00Z")  # fmt: skip


def _remember(gql: GraphQL, text: str, at: str, session: str, id: str, user: str = "lena") -> None:
    job = gql(REMEMBER, {"text": text, "at": at, "session": session, "id": id, "user": user})["remember"]
    assert job["__typename"] == "Job", job
    gql.wait_for_job(job["id"], timeout_s=600)  # a shared worker may be busy


def _profile(gql: GraphQL, **variables: Any) -> dict[str, Any]:
    found = gql(PROFILE, variables)["profile"]
    assert found["__typename"] == "Profile", found
    return found  # type: ignore[no-any-return]


def _slots(profile: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(s["subject"].lower(), s["slot"]): s for subject in profile["subjects"] for s in subject["slots"]}


@pytest.fixture()
def lena(gql: GraphQL) -> GraphQL:
    """Lena's two sessions remembered, the later one after the earlier one's job finished."""
    _remember(gql, *EARLIER, session="s1", id="porto")
    _remember(gql, *LATER, session="s2", id="graz")
    return gql


def test_the_home_slot_is_graz_now_with_porto_before_it(lena: GraphQL, driver: neo4j.Driver, space: str) -> None:
    answer = lena.raw(PROFILE, {"user": "lena"}).json()
    assert answer["extensions"]["cost"]["neo4jQueries"] == 1  # one statement, whatever the profile's size
    profile = answer["data"]["profile"]
    assert profile["user"] == "lena" and not profile["truncated"]
    assert profile["subjects"][0]["subject"].lower() == "lena"  # her own facts first
    home = _slots(profile)[("lena", "home")]
    current = home["current"]
    assert (current["value"], current["valueType"], current["status"]) == ("Graz", "GPE", "active"), home
    assert current["validFrom"].startswith("2025-08-01")  # "last month", said on 10 September
    assert [(p["externalId"], p["speaker"]) for p in current["provenance"]] == [("graz", "lena")]
    assert current["provenance"][0]["episodeId"].startswith("ep_") and current["provenance"][0]["occurredAt"]
    porto = [f for f in home["history"] if f["value"] == "Porto"]
    assert porto, home["history"]
    assert porto[0]["validTo"] == current["validFrom"] and porto[0]["supersededBy"] == current["propositionId"]
    assert porto[0]["status"] == "superseded" and porto[0]["validFrom"].startswith("2025-03-01")
    assert [p["externalId"] for p in porto[0]["provenance"]] == ["porto"]

    # Events ("I started at a shipping firm") are no profile entries.
    records, _, _ = driver.execute_query(
        "MATCH (p:Proposition {space: $space}) WHERE p.aspect = 'event' RETURN collect(p.id) AS ids",
        space=memory_space(space, "lena"),
    )
    shown = {
        fact["propositionId"]
        for slot in _slots(profile).values()
        for fact in [slot["current"], *slot["alsoCurrent"], *slot["history"]]
        if fact
    }
    assert not set(records[0]["ids"]) & shown

    # One subject, named in any case; a subject memory does not know has nothing.
    assert [s["subject"].lower() for s in _profile(lena, user="lena", subject="LENA")["subjects"]] == ["lena"]
    assert _profile(lena, user="lena", subject="Porto")["subjects"] == []


def test_another_user_and_another_space_see_nothing_of_it(
    lena: GraphQL, http: TestClient, driver: neo4j.Driver, space: str
) -> None:
    _remember(lena, "I live in Oslo.", "2025-04-01T10:00:00Z", session="b1", id="oslo", user="bob")
    bob = _profile(lena, user="bob")
    told = [f["value"] for slot in _slots(bob).values() for f in [slot["current"], *slot["history"]] if f]
    assert "Oslo" in told and not {"Graz", "Porto"} & set(told), bob
    assert _profile(lena, user="nobody")["subjects"] == []  # an unknown user: an empty profile, no error
    other = f"{space}-other"
    try:
        tenant = GraphQL(http, issue_key(driver, other))
        assert _profile(tenant, user="lena")["subjects"] == []
        assert _profile(tenant, user="lena", subject="lena")["subjects"] == []
    finally:
        driver.execute_query("MATCH (n) WHERE n.space = $s OR n.space STARTS WITH $s + '/' DETACH DELETE n", s=other)


@pytest.mark.parametrize(
    ("variables", "fragment"),
    [
        ({"user": "x" * 201}, "user: at most 200 characters, got 201"),
        ({"user": "  "}, "user: 1-200 printable characters, got a blank string"),
        ({"user": "lena", "subject": "x" * 201}, "subject: at most 200 characters"),
        ({"user": "lena", "subject": "a\x07b"}, "subject: printable characters only, got U+0007 at position 1"),
        ({"user": "lena", "subject": ""}, "subject: 1-200 printable characters, got a blank string"),
    ],
)
def test_bad_names_are_invalid_input_and_read_nothing(gql: GraphQL, variables: dict[str, Any], fragment: str) -> None:
    answer = gql.raw(PROFILE, variables).json()
    found = answer["data"]["profile"]
    assert found["__typename"] == "InvalidInput" and fragment in found["message"], found
    assert answer["extensions"]["cost"]["neo4jQueries"] == 0


def test_a_missing_user_is_a_validation_error(gql: GraphQL) -> None:
    errors = gql.errors("{ profile { __typename } }")
    assert errors and "Argument 'Query.profile(user:)' of type 'String!' is required" in errors[0]["message"]
