"""The current fact first, from what the memory holds (issue 44, Deliver 4(b) and 4(c)), through the GraphQL API.

Tom says he moved to Lisbon; months later, in another session, that he moved from Lisbon to Madrid. The ingest
pipeline's own consolidate stage (the worker's, no consolidation run) links the later statement as a revision of the
earlier one: every wording of "where does Tom live" finds Madrid first, the Lisbon statement ends when the Madrid one
starts (world time) and stays reachable with asOf and history."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from app.api.services import ApiServices
from graph.consolidation.run import ConsolidationOptions, consolidate
from tests.support.graphql_client import GraphQL, operation
from tests.support.tom_and_priya import TOM_AND_PRIYA as CHAT
from tests.support.tom_and_priya import WHERE_TOM_LIVES

NOW = "2024-06-12T12:00:00Z"
HISTORY = """
query($id: ID!) {
  history(propositionId: $id) {
    __typename
    ... on History { status currentId replaced { propositionId text reason } }
  }
}
"""
PROPOSITION = """
query($id: ID!) { node(id: $id) { __typename ... on Proposition { id text status validFrom validTo } } }
"""


def _recall(gql: GraphQL, query: str, **extra: Any) -> list[dict[str, Any]]:
    """The ranking, whatever the relevance gate would say of it (minRelevance 0: docs/relevance.md)."""
    variables = {"query": query, "now": NOW, "limit": 10, "tokenBudget": 4096, "minRelevance": 0.0, **extra}
    result = gql(operation("recall"), variables)["recall"]
    assert result["__typename"] == "Recall", result
    return result["items"]  # type: ignore[no-any-return]


@pytest.fixture()
def revised(gql: GraphQL, services: ApiServices, space: str) -> dict[str, Any]:
    """The first session ingested, then the whole chat (a later job: its consolidate stage revises); the Lisbon
    statement's id and a time between the two jobs."""
    gql.ingest([{**CHAT, "sessions": CHAT["sessions"][:1]}], timeout_s=900)  # a shared worker may be busy
    lisbon = next(i for i in _recall(gql, "Tom moved to Lisbon") if "Lisbon" in i["text"])
    before = datetime.now(UTC).isoformat()
    job = gql.ingest([CHAT], timeout_s=900)
    # The worker's consolidate stage links the later move (ENGRAM_WORKER_REVISIONS, on by default); a consolidation
    # run with revisions links it as well where the stack's worker runs with them off.
    consolidate(space, driver=services.driver, options=ConsolidationOptions(revisions=True))
    assert gql(PROPOSITION, {"id": lisbon["id"]})["node"]["status"] == "SUPERSEDED", job
    return {"lisbon": lisbon["id"], "before": before}


@pytest.mark.parametrize("query", WHERE_TOM_LIVES)
def test_the_later_move_ranks_first_whatever_the_wording(gql: GraphQL, revised: dict[str, Any], query: str) -> None:
    items = _recall(gql, query)
    assert "Madrid" in items[0]["text"], [i["text"] for i in items[:3]]
    # What held before is still found by its words, below the fact that replaced it, marked so
    # (docs/supersession.md): its current version goes just above it wherever it ranks.
    madrid = items[0]
    (lisbon,) = [i for i in items if i["id"] == revised["lisbon"]]
    assert (lisbon["supersededBy"], madrid["supersededBy"]) == (madrid["id"], None)
    assert lisbon["validTo"].startswith("2024-05-01") and lisbon["relevance"] <= madrid["relevance"]


def test_the_earlier_statement_ends_when_the_later_starts_and_stays_in_history(
    gql: GraphQL, revised: dict[str, Any]
) -> None:
    old = gql(PROPOSITION, {"id": revised["lisbon"]})["node"]
    assert old["status"] == "SUPERSEDED"
    history = gql(HISTORY, {"id": revised["lisbon"]})["history"]
    current = gql(PROPOSITION, {"id": history["currentId"]})["node"]
    assert "Madrid" in current["text"]
    assert old["validTo"] == current["validFrom"]  # the world's time of the move (May 2024), not the server clock
    assert old["validTo"].startswith("2024-05-01")
    # A fact change (graph/consolidation/fact_changes.py: the move names Lisbon) ended it.
    assert [(s["propositionId"], s["reason"]) for s in gql(HISTORY, {"id": current["id"]})["history"]["replaced"]] == [
        (revised["lisbon"], "changed")
    ]
    # asOf a time while Tom lived in Lisbon (world time: from the Lisbon statement's validFrom until the move), the
    # Lisbon statement is what held.
    earlier = [i["id"] for i in _recall(gql, "Where does Tom live?", asOf=old["validFrom"])]
    assert revised["lisbon"] in earlier


def test_a_time_scoped_question_puts_what_happened_in_that_span_first(gql: GraphQL, revised: dict[str, Any]) -> None:
    """4(c): asked on 12 June, "last week" is 3-9 June: the half marathon of that week comes first, above the moves
    (one told two weeks before the span, one dated the month before)."""
    variables = {
        "query": "What did Tom do last week?",
        "now": NOW,
        "limit": 10,
        "tokenBudget": 4096,
        "minRelevance": 0.0,
    }
    result = gql(operation("recall"), variables)["recall"]
    items = result["items"]
    assert "half marathon" in items[0]["text"], [i["text"] for i in items[:3]]
    assert "when" in items[0]["foundBy"]  # the When step found that week's episodes
    # The in-span reordering (graph/recall/steps/in_span.py) is off by default (docs/tuning.md span_closeness); its
    # unit tests (tests/unit/graph/recall) run it on.
