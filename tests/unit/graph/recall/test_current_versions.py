"""A revision changes the order, not the membership (graph/recall/steps/current_versions.py, docs/supersession.md):
the statement a revision replaced (an update that does not carry its proofs, consolidation's revisions step) stays a
candidate, found by its words and its episode, marked with what replaced it and when it stopped holding; its current
version goes just above it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.recall.models import RecallResult
from graph.recall.steps.current_versions import CurrentVersionsAbove
from graph.recall.steps.earlier_versions import EarlierStateFirst
from graph.recall.threads import RecallThreads
from tests.support.memory_searcher import MemoryGraph, MemorySearcher
from tests.unit.graph.recall.recall_support import (
    AFTER,
    BETWEEN,
    SESSION_1,
    SESSION_2,
    chat_memory,
    embed,
    minutes,
    new_engine,
    new_run,
    ranked,
    recall_config,
    request,
)

MOVED = datetime(2024, 2, 1, tzinfo=UTC)  # when Lisbon's statement says Alice moved


def revised_memory() -> MemoryGraph:
    """The chat memory with its update written as a revision: "Alice lives in Lisbon" revises "Alice lives in Berlin"
    without taking its proof (e1 proves only Berlin)."""
    g = chat_memory()
    g.propositions["p_berlin"].status, g.supersedes = "active", {}
    g.propositions["p_lisbon"].episodes = ["e6"]
    g.proven["e1"] = ["p_berlin"]
    g.supersede("p_lisbon", "p_berlin", reason="updated", at=SESSION_2, carry=False)
    return g


def ids(result: RecallResult) -> list[str]:
    return [item.id for item in result.items]


@pytest.mark.parametrize("query", ["Alice lives in Berlin", "Where does Alice live?", "Which city is Alice in?"])
def test_the_current_version_goes_just_above_what_it_replaced(query: str) -> None:
    result = new_engine(revised_memory()).recall(request(query))
    lisbon, berlin = ids(result).index("p_lisbon"), ids(result).index("p_berlin")
    assert berlin == lisbon + 1, ids(result)
    item = result.items[berlin]
    assert (item.superseded_by, item.valid_to) == ("p_lisbon", MOVED)
    assert result.items[lisbon].superseded_by is None and result.items[lisbon].score >= item.score


def test_the_replaced_statement_stays_a_candidate_found_by_its_words_and_its_episode() -> None:
    g = revised_memory()
    searcher = MemorySearcher(g)
    vector = [float(x) for x in embed(["Alice lives in Berlin"])[0]]
    assert searcher.dense("propositions", vector, 1)[0].id == "p_berlin"  # not mapped to Lisbon
    (e1,) = [hit for hit in searcher.dense("episodes", vector, 10) if hit.id == "e1"]
    assert e1.proves == ("p_berlin",)
    # Without the step the order is the fused one: Berlin's own words put it first (the membership is the same).
    off = new_engine(g, recall_config(current_versions=False)).recall(request("Alice lives in Berlin"))
    on = new_engine(g).recall(request("Alice lives in Berlin"))
    assert ids(off)[0] == "p_berlin" and ids(on)[:2] == ["p_lisbon", "p_berlin"]
    assert set(ids(on)) == set(ids(off))
    assert "current versions above" in [step.step for step in on.trace]


def test_known_at_before_the_revision_the_earlier_statement_is_current_and_unmarked() -> None:
    engine = new_engine(revised_memory())
    before = engine.recall(request("Where does Alice live?", known_at=BETWEEN))  # what memory knew then
    assert ids(before)[0] == "p_berlin" and before.items[0].superseded_by is None
    # What was true then in the world: Alice had moved to Lisbon on 1 February (said on 20 March).
    then = engine.recall(request("Where does Alice live?", as_of=BETWEEN))
    assert ids(then)[0] == "p_lisbon" and then.items[0].superseded_by is None, ids(then)
    assert "p_berlin" not in ids(then)[:1]
    after = engine.recall(request("Where does Alice live?", as_of=AFTER))
    assert ids(after)[:2] == ["p_lisbon", "p_berlin"] and after.items[1].superseded_by == "p_lisbon"


def test_a_chain_puts_the_latest_version_above_the_first_version_returned() -> None:
    """Berlin -> Lisbon -> Madrid: Madrid goes above Berlin (Lisbon, replaced too, is not what holds now)."""
    g = revised_memory()
    g.now = minutes(SESSION_2, 60)
    g.add_episode("e10", "Big news, I am in Madrid now", source="chat-3", speaker="Alice", occurred_at=g.now)
    g.add_proposition("p_madrid", "Alice relocated to Madrid", proven_by=["e10"], concepts=["madrid"], valid_from=g.now)
    g.supersede("p_madrid", "p_lisbon", reason="updated", carry=False)
    result = new_engine(g, recall_config(limit=3)).recall(request("Alice lives in Berlin"))
    assert ids(result)[:2] == ["p_madrid", "p_berlin"], ids(result)
    madrid, berlin = result.items[:2]
    assert berlin.superseded_by == "p_lisbon" and madrid.superseded_by is None


def test_a_carrying_update_still_stands_for_what_it_replaced() -> None:
    """A merge or an update that carries its proofs (the duplicates step) is an access path, not a revision."""
    searcher = MemorySearcher(chat_memory())
    vector = [float(x) for x in embed(["Alice lives in Berlin"])[0]]
    assert "p_berlin" not in {hit.id for hit in searcher.dense("propositions", vector, 10)}
    assert SESSION_1 < SESSION_2


def test_a_current_version_not_found_is_brought_in_as_high_and_as_relevant(threads: RecallThreads) -> None:
    g = revised_memory()
    run = new_run(g, threads, "Alice lives in Berlin", recall_config())
    berlin, rex = ranked(g, "p_berlin", 0.9), ranked(g, "p_rex", 0.5)
    berlin.superseded_by, berlin.relevance = "p_lisbon", 0.8
    run.ranked = [berlin, rex]
    CurrentVersionsAbove()(run)
    assert [item.id for item in run.ranked] == ["p_lisbon", "p_berlin", "p_rex"]
    lisbon = run.ranked[0]
    assert (lisbon.score, lisbon.relevance, lisbon.found_by) == (0.9, 0.8, ["current version of p_berlin"])
    assert lisbon.text == "Alice lives in Lisbon" and [p.episode_id for p in lisbon.provenance] == ["e6"]


def test_a_current_version_already_above_is_made_as_relevant(threads: RecallThreads) -> None:
    """The relevance gate must never keep the replaced statement and drop what replaced it."""
    g = revised_memory()
    run = new_run(g, threads, "Alice lives in Berlin", recall_config())
    lisbon, rex, berlin = ranked(g, "p_lisbon", 0.9), ranked(g, "p_rex", 0.7), ranked(g, "p_berlin", 0.5)
    lisbon.relevance, rex.relevance, berlin.relevance = 0.5, 0.6, 0.7
    berlin.superseded_by = "p_lisbon"
    run.ranked = [lisbon, rex, berlin]
    CurrentVersionsAbove()(run)
    assert [item.id for item in run.ranked] == ["p_lisbon", "p_rex", "p_berlin"]
    assert (lisbon.score, lisbon.relevance) == (0.9, 0.7)


@pytest.mark.parametrize("query", ["Where did Alice live before Lisbon?", "Where did Alice use to live?"])
def test_a_question_about_an_earlier_state_puts_the_replaced_version_first(query: str) -> None:
    result = new_engine(revised_memory()).recall(request(query))
    first = result.items[0]
    assert (first.id, first.superseded_by, first.valid_to) == ("p_berlin", "p_lisbon", MOVED), ids(result)
    assert "earlier state first" in [step.step for step in result.trace]
    now = new_engine(revised_memory()).recall(request("Where does Alice live?"))
    assert ids(now)[0] == "p_lisbon"  # a question about now keeps the current fact first


def test_an_earlier_state_question_moves_a_replaced_version_only_above_its_own_current_one(
    threads: RecallThreads,
) -> None:
    """Only the fact that changed is reordered: a replaced statement whose current version is not ranked (another
    thing that changed) keeps its place below what the question is about."""
    g = revised_memory()
    run = new_run(g, threads, "Where did Alice live before Lisbon?", recall_config())
    rex, lisbon, berlin, other = (
        ranked(g, "p_rex", 0.9),
        ranked(g, "p_lisbon", 0.8),
        ranked(g, "p_berlin", 0.7),
        ranked(g, "p_rex", 0.2),
    )
    berlin.superseded_by = "p_lisbon"
    other.id, other.superseded_by = "p_unranked_replaced", "p_not_ranked"
    run.ranked = [rex, lisbon, berlin, other]
    EarlierStateFirst()(run)
    assert [item.id for item in run.ranked] == ["p_rex", "p_berlin", "p_lisbon", "p_unranked_replaced"]
    assert berlin.score == 0.8 and other.score == 0.2  # the moved version takes its current one's score
