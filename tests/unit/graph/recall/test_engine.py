"""The whole recall engine (graph/recall/engine.py) over the chat memory of recall_support.py, searched in memory."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from graph.recall.engine import RecallEngine
from graph.recall.models import ItemKind, MemoryType, RecallResult
from graph.recall.steps.prune import Prune
from graph.recall.steps.rank import Rank
from graph.recall.steps.route import Route
from graph.recall.steps.seed import Seed
from tests.support.memory_searcher import MemoryGraph, MemorySearcher
from tests.unit.graph.recall.recall_support import (
    AFTER,
    BEFORE,
    BETWEEN,
    BOB,
    SESSION_1,
    SESSION_2,
    MakeEngine,
    chat_memory,
    count_tokens,
    embed,
    recall_config,
    request,
)


def item_ids(result: RecallResult) -> list[str]:
    return [item.id for item in result.items]


def steps(result: RecallResult) -> list[str]:
    return [step.step for step in result.trace]


def detail(result: RecallResult, name: str) -> dict[str, Any]:
    (found,) = [step.detail for step in result.trace if step.step == name]
    return found


def pruned_reasons(result: RecallResult) -> list[str]:
    return [entry["reason"] for entry in detail(result, "rerank and prune")["pruned"]]


def test_the_answer_to_a_simple_question_comes_first_with_its_provenance(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("Where does Bob work?"))
    first = result.items[0]
    assert (first.id, first.kind, first.text) == ("p_nurse", ItemKind.PROPOSITION, "Bob works as a nurse in Porto")
    (proof,) = first.provenance
    assert (proof.episode_id, proof.source_id, proof.speaker) == ("e5", "chat-1", BOB)
    assert proof.text == "I work as a nurse in Porto" and proof.occurred_at == SESSION_1.replace(minute=4)
    assert first.tokens == 7 and result.tokens == sum(item.tokens for item in result.items)
    assert {"dense", "fulltext"} <= set(first.found_by)
    scores = [item.score for item in result.items]
    assert scores == sorted(scores, reverse=True)
    assert result.sources[0].source_id == "chat-1" and result.sources[0].item_ids[0] == "p_nurse"
    assert '"p_nurse"' in result.cypher and '"toy"' in result.cypher
    assert result.memory_types == [MemoryType.SEMANTIC, MemoryType.EPISODIC, MemoryType.PROCEDURAL]


def test_the_trace_lists_the_pipelines_steps_in_order(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("Where does Alice live?"))
    # Pages: the space has a page; participants: the query names Alice; no when (no `now`), no further hop (the top
    # items' concepts were all activated), no latest version (not a question about a state).
    assert steps(result) == [
        "route",
        "seed",
        "abstract",
        "propagate",
        "expand",
        "rank",
        "context",
        "pages",
        "participants",
        "rank with context",
        "controller after hop 1",
        "mmr",
        "newer restatements first",
        "relevance",
        "facts first",
        "rerank and prune",
    ]
    assert all(step.ms >= 0 for step in result.trace)
    assert detail(result, "participants")["named"] == ["Alice"]


def test_a_time_and_a_state_add_their_steps_in_the_pipelines_order(make_engine: MakeEngine) -> None:
    query = "Where did Alice hike yesterday, and where is she now?"
    result = make_engine(recall_config(span_closeness=0.5)).recall(request(query, now=SESSION_2 + timedelta(days=1)))
    names = steps(result)
    assert names.index("context") < names.index("pages") < names.index("when") < names.index("participants")
    assert names.index("participants") < names.index("rank with context") < names.index("controller after hop 1")
    assert names[-5:] == [
        "newer restatements first",
        "latest version first",
        "in span first",
        "relevance",
        "rerank and prune",
    ]


def test_the_configs_defaults_apply_where_the_request_names_none(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(limit=3, token_budget=1024, hop_limit=1, hop_confident_similarity=1.0))
    result = engine.recall(request("Where does Bob work?"))
    assert len(result.items) == 3 and set(pruned_reasons(result)) == {"beyond the limit of 3 items"}
    assert result.hops == 1
    assert detail(result, "controller after hop 1") == {"another_hop": False, "reason": "hop limit 1 reached"}
    budget = make_engine(recall_config(token_budget=16)).recall(request("Where does Bob work?"))
    assert 0 < budget.tokens <= 16
    assert any(reason.endswith("would exceed the budget of 16") for reason in pruned_reasons(budget))


def test_a_requests_limit_token_budget_and_hop_limit_override_the_configs(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(limit=3, token_budget=16, hop_limit=1, hop_confident_similarity=1.0))
    result = engine.recall(request("Where does Bob work?", limit=5, token_budget=200, hop_limit=2))
    assert len(result.items) == 5 and set(pruned_reasons(result)) == {"beyond the limit of 5 items"}
    assert result.tokens > 16
    assert result.hops == 2 and detail(result, "controller after hop 2")["reason"] == "hop limit 2 reached"
    fewer = engine.recall(request("Where does Bob work?", limit=2))
    assert len(fewer.items) == 2 and fewer.tokens <= 16


def test_memory_types_given_by_the_request_steer_the_searches(make_engine: MakeEngine) -> None:
    # No minimum relevance: the tea procedure does not answer where Alice lives, but it is what the types admit.
    asked = request("Where does Alice live?", memory_types=[MemoryType.PROCEDURAL], min_relevance=0.0)
    result = make_engine().recall(asked)
    assert result.memory_types == [MemoryType.PROCEDURAL]
    assert set(detail(result, "seed")["hits"]) == {"prescription_dense", "prescription_fulltext", "intent_dense"}
    assert "r_tea" in item_ids(result)
    # The types are a filter: only procedures come back, though concepts and context found knowledge too; and the
    # knowledge-only steps (pages, participants: the query names Alice) do not run.
    assert {item.kind for item in result.items} == {ItemKind.PRESCRIPTION}
    assert "pages" not in steps(result) and "participants" not in steps(result)


def test_a_how_to_question_is_routed_to_procedures(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("How do I make a cup of tea?"))
    assert result.memory_types == [MemoryType.PROCEDURAL, MemoryType.SEMANTIC]
    (tea,) = [item for item in result.items if item.kind is ItemKind.PRESCRIPTION]
    assert tea.id == "r_tea" and tea.found_by == ["prescription_dense", "prescription_fulltext", "intent_dense"]
    assert tea.components["relevance"] == 1.0  # first in each of the lists that search procedures
    assert [p.episode_id for p in tea.provenance] == ["t1", "t2"]


def test_a_question_about_what_was_said_returns_the_episodes(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("What did Bob say about his job?"))
    assert result.memory_types[0] is MemoryType.EPISODIC
    assert {item.kind for item in result.items} == {ItemKind.EPISODE}
    assert result.items[0].id == "e5" and result.items[0].text == "I work as a nurse in Porto"


def test_known_at_before_an_update_recalls_the_old_fact_and_now_the_new_one(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(earlier_versions=1))
    before = engine.recall(request("Where does Alice live?", known_at=BETWEEN))  # what memory knew then
    assert item_ids(before)[0] == "p_berlin" and "p_lisbon" not in item_ids(before)
    assert "e6" not in {p.episode_id for item in before.items for p in item.provenance}  # told after then
    for as_of in (None, AFTER):
        now = engine.recall(request("Where does Alice live?", as_of=as_of))
        # The current fact first, what it replaced just below it (docs/supersession.md).
        assert item_ids(now)[:2] == ["p_lisbon", "p_berlin"]
        lisbon, berlin = now.items[:2]
        assert (berlin.superseded_by, lisbon.superseded_by) == ("p_lisbon", None)
        assert berlin.relevance == lisbon.relevance and berlin.score <= lisbon.score
    # The update carries the replaced fact's proof.
    assert [p.episode_id for p in now.items[0].provenance] == ["e1", "e6"]


def test_known_at_before_anything_was_recorded_recalls_no_knowledge(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("Where does Alice live?", known_at=BEFORE))
    assert [item.id for item in result.items if item.kind is not ItemKind.PRESCRIPTION] == []


def test_known_at_before_a_procedure_was_recorded_leaves_it_out(make_engine: MakeEngine) -> None:
    result = make_engine().recall(request("How do I make a cup of tea?", known_at=BETWEEN))  # r_tea: session 2
    assert "r_tea" not in item_ids(result)


def without_times(result: RecallResult) -> list[tuple[str, dict[str, Any]]]:
    return [(step.step, {k: v for k, v in step.detail.items() if not k.endswith("_ms")}) for step in result.trace]


@pytest.mark.parametrize("query", ["Where does Alice live?", "What does Rex eat now?", "How do I make a cup of tea?"])
def test_the_same_request_gives_the_same_result(make_engine: MakeEngine, query: str) -> None:
    engine = make_engine()
    first, second = engine.recall(request(query)), engine.recall(request(query))
    again = make_engine(graph=chat_memory()).recall(request(query))  # a fresh engine over a fresh memory
    assert first.items == second.items == again.items
    assert without_times(first) == without_times(second) == without_times(again)
    assert first.sources == again.sources and first.cypher == again.cypher


def test_an_engine_needs_a_driver_or_a_searcher_factory() -> None:
    with pytest.raises(ValueError, match="needs a Neo4j driver or a searcher factory"):
        RecallEngine(None, "", embed, count_tokens, config=recall_config())


def test_an_engine_runs_the_pipeline_it_is_given(graph: MemoryGraph) -> None:
    engine = RecallEngine(
        None,
        "",
        embed,
        count_tokens,
        config=recall_config(),
        searchers=lambda req: MemorySearcher(graph, req.as_of, known_at=req.known_at),
        pipeline=(Route(), Seed(), Rank(), Prune()),
    )
    try:
        result = engine.recall(request("Where does Bob work?"))
    finally:
        engine.close()
    assert steps(result) == ["route", "seed", "rank", "rerank and prune"]
    assert result.items[0].id == "p_nurse" and result.hops == 1
    assert all(
        found in ("dense", "fulltext", "episode_dense", "episode_fulltext") for found in result.items[0].found_by
    )
