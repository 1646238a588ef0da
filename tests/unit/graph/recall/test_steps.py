"""Each step of the recall pipeline (graph/recall/engine.py `PIPELINE`) on a `RecallRun` over the chat memory of
recall_support.py, searched in memory. A step under test gets the steps before it, or a hand-made ranking."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from graph.recall.candidates import Candidate
from graph.recall.engine import PIPELINE
from graph.recall.logic.hop import HopController, HopDecision
from graph.recall.models import ItemKind, MemoryType
from graph.recall.run import RecallRun
from graph.recall.steps.abstract import Abstract
from graph.recall.steps.base import Ahead, Step, Together
from graph.recall.steps.context import Context
from graph.recall.steps.hop import Hop
from graph.recall.steps.mmr import Mmr
from graph.recall.steps.pages import Pages
from graph.recall.steps.participants import Participants
from graph.recall.steps.prune import Prune
from graph.recall.steps.rank import Rank
from graph.recall.steps.route import Route
from graph.recall.steps.seed import Seed
from graph.recall.steps.temporal_order import LatestVersionFirst, NewerRestatementsFirst
from graph.recall.steps.when import When
from tests.support.memory_searcher import MemoryGraph
from tests.unit.graph.recall.recall_support import (
    ALICE,
    BOB,
    SESSION_2,
    MakeRun,
    embed,
    perform,
    ranked,
    recall_config,
    trace_detail,
    trace_steps,
)

SEED_LISTS = ("dense", "fulltext", "episode_dense", "episode_fulltext")
PROCEDURE_LISTS = ("prescription_dense", "prescription_fulltext", "intent_dense")
ACTIVE = 7  # active propositions of the chat memory (p_berlin was superseded): the idf's count
COMPONENTS = {"relevance", "similarity", "activation", "confidence", "importance", "recency", "focus"}


def cosine(a: str, b: str) -> float:
    """The toy embedder's cosine of two texts (its rows are unit vectors)."""
    first, second = embed([a, b])
    return float(first @ second)


def ids(run: RecallRun) -> list[str]:
    return [item.id for item in run.ranked]


def in_list(run: RecallRun, name: str) -> dict[str, int]:
    """The candidates that list `name` found, with their rank in it."""
    return {c.id: c.ranks[name] for c in run.candidates.values() if name in c.ranks}


class Recorder:
    """A router that records the queries it was asked about."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    def route(self, query: str) -> list[MemoryType]:
        self.queries.append(query)
        return [MemoryType.SEMANTIC]


class RecordingController(HopController):
    def __init__(self, confident_similarity: float = 0.5) -> None:
        super().__init__(confident_similarity)
        self.calls: list[tuple[int, int, int, float]] = []

    def decide(self, hop: int, hop_limit: int, new_concepts: int, top_similarity: float) -> HopDecision:
        self.calls.append((hop, hop_limit, new_concepts, top_similarity))
        return super().decide(hop, hop_limit, new_concepts, top_similarity)


# -- route ------------------------------------------------------------------------------------------------------------


def test_route_takes_the_routers_types_and_embeds_the_query(make_run: MakeRun) -> None:
    run = perform(make_run("How do I make a cup of tea?"), Route())
    assert run.types == [MemoryType.PROCEDURAL, MemoryType.SEMANTIC]
    assert trace_steps(run) == ["route"]
    assert trace_detail(run, "route") == {"memory_types": ["procedural", "semantic"]}
    assert len(run.vector) == 256
    assert run.vector == pytest.approx(embed(["How do I make a cup of tea?"])[0].tolist())


def test_route_takes_the_requests_types_without_asking_the_router(make_run: MakeRun) -> None:
    run = make_run("How do I make a cup of tea?", memory_types=[MemoryType.EPISODIC])
    router = Recorder()
    run.tools = replace(run.tools, router=router)
    Route()(run)
    assert run.types == [MemoryType.EPISODIC] and router.queries == []
    assert trace_detail(run, "route") == {"memory_types": ["episodic"]}
    routed = make_run("Where does Bob work?")
    routed.tools = replace(routed.tools, router=router)
    Route()(routed)
    assert router.queries == ["Where does Bob work?"] and routed.types == [MemoryType.SEMANTIC]


# -- seed -------------------------------------------------------------------------------------------------------------


def test_seed_adds_the_candidates_of_every_list_in_a_fixed_list_order(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Seed())
    detail = trace_detail(run, "seed")
    # Every current proposition (7) and every episode (12) has a vector; "rex" / "eat(s)" are in 3 propositions
    # (p_rex, p_salmon, p_daily) and 4 episodes (e2, e3, e4, e8).
    assert detail["hits"] == {
        "dense": 7,
        "fulltext": 3,
        "episode_dense": 12,
        "episode_fulltext": 4,
        "prescription_dense": 1,
        "prescription_fulltext": 0,
        "intent_dense": 1,
    }
    assert detail["lucene"] == "rex OR eat" and detail["task_lucene"] == "rex OR eat"
    assert detail["candidates"] == len(run.candidates)
    salmon = run.candidates["p_salmon"]
    assert salmon.kind is ItemKind.PROPOSITION and salmon.found_by == list(SEED_LISTS)
    assert salmon.ranks["fulltext"] == 1  # the only text holding both words, "eats" stemmed
    # An utterance no statement was drawn from stands for itself (the query routes to episodes too).
    assert run.candidates["e3"].kind is ItemKind.EPISODE
    assert run.candidates["e3"].found_by == ["episode_dense", "episode_fulltext"]
    assert run.candidates["e3"].ranks == {"episode_dense": 1, "episode_fulltext": 1}
    # The prescription: by its own vector and by its intent's.
    assert run.candidates["r_tea"].kind is ItemKind.PRESCRIPTION
    assert run.candidates["r_tea"].found_by == ["prescription_dense", "intent_dense"]
    # Superseded knowledge is no candidate.
    assert "p_berlin" not in run.candidates
    assert run.unranked_evidence == 0  # the first ranking ranks it


def test_seed_searches_only_the_memory_kinds_routed(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?", memory_types=[MemoryType.SEMANTIC]), Route(), Seed())
    detail = trace_detail(run, "seed")
    assert set(detail["hits"]) == set(SEED_LISTS) and "task_lucene" not in detail
    assert all(c.kind is ItemKind.PROPOSITION for c in run.candidates.values())  # no episode, no prescription
    procedural = perform(make_run("What does Rex eat?", memory_types=[MemoryType.PROCEDURAL]), Route(), Seed())
    assert set(trace_detail(procedural, "seed")["hits"]) == set(PROCEDURE_LISTS)
    assert set(procedural.candidates) == {"r_tea"}


def test_a_dense_hit_votes_by_how_close_it_is(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Seed())
    # "Bob works as a nurse in Porto" shares no word with the query: found by the exact scan, but with no vote.
    nurse = run.candidates["p_nurse"]
    assert nurse.found_by == ["dense", "episode_dense"] and nurse.strengths == {"dense": 0.0, "episode_dense": 0.0}
    assert run.candidates["p_rex"].strengths["dense"] == 1.0


# -- abstract ---------------------------------------------------------------------------------------------------------


def test_abstract_activates_the_querys_concepts_and_their_associations(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Abstract())
    assert trace_steps(run) == ["route", "abstract", "propagate", "expand"]
    # "rex" is mentioned by 3 of the 7 active propositions: idf log(8 / 3), an exact key match scores 1.
    rex = math.log((ACTIVE + 1) / 3)
    assert trace_detail(run, "abstract")["concepts"] == {"rex": round(rex, 3)}
    # rex's associations (co-mentions): kibble 2 (idf log 4), beagle 1 (log 8), alice 1 (log 8/3); the strongest
    # gets half of rex's activation, the others in proportion to their weight.
    strongest = 2 * math.log(4)
    propagate = trace_detail(run, "propagate")
    assert propagate["activated"] == 4
    assert propagate["spread"] == {
        "kibble": ("concept:rex", round(0.5 * rex, 3)),
        "beagle": ("concept:rex", round(0.5 * rex * math.log(8) / strongest, 3)),
        "alice": ("concept:rex", round(0.5 * rex * rex / strongest, 3)),
    }
    assert run.activated == {"concept:rex", "concept:kibble", "concept:beagle", "concept:alice"}
    # The knowledge mentioning them joins as list "concepts", each with the activation that reached it.
    assert trace_detail(run, "expand") == {"concepts_expanded": 4, "candidates": 5}
    assert set(run.candidates) == {"p_rex", "p_salmon", "p_daily", "p_lisbon", "p_hike"}
    assert all(c.found_by == ["concepts"] for c in run.candidates.values())
    beagle, alice = 0.5 * rex * math.log(8) / strongest, 0.5 * rex * rex / strongest
    assert run.candidates["p_rex"].activation == pytest.approx(rex + beagle + alice)
    assert run.candidates["p_salmon"].activation == pytest.approx(rex + 0.5 * rex)
    assert run.candidates["p_lisbon"].activation == pytest.approx(alice)
    assert run.candidates["p_rex"].ranks["concepts"] == 1  # the most activated first
    assert all(c.similarity is not None for c in run.candidates.values())


def test_abstract_after_seed_adds_its_list_to_the_seeds_candidates(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Together(Seed(), Abstract()))
    assert trace_steps(run) == ["route", "seed", "abstract", "propagate", "expand"]
    assert run.candidates["p_salmon"].found_by == [*SEED_LISTS, "concepts"]
    assert run.candidates["p_rex"].activation > 0 and run.candidates["p_nurse"].activation == 0


def test_abstract_without_a_known_concept_adds_nothing(make_run: MakeRun) -> None:
    run = perform(make_run("quarterly tax forms"), Route(), Abstract())
    assert trace_detail(run, "abstract")["concepts"] == {}
    assert trace_detail(run, "expand") == {"concepts_expanded": 0, "candidates": 0}
    assert run.candidates == {} and run.activated == set()


# -- rank -------------------------------------------------------------------------------------------------------------


def test_rank_scores_every_candidate_best_first_with_its_components(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Together(Seed(), Abstract()), Rank())
    assert set(ids(run)) == set(run.candidates)  # fewer than the rerank pool: all are ranked
    keys = [(-item.score, item.id) for item in run.ranked]
    assert keys == sorted(keys)
    assert all(set(item.components) >= COMPONENTS for item in run.ranked)
    tea = next(item for item in run.ranked if item.id == "r_tea")
    assert "goal_fit" in tea.components  # procedures are fitted to the task asked
    facts = [item for item in run.ranked if item.kind is not ItemKind.PRESCRIPTION]
    assert max(item.components["relevance"] for item in facts) == 1.0  # relative to the best fused fact
    assert trace_detail(run, "rank") == {"ranked": len(run.ranked), "hydrated": len(run.candidates)}
    assert run.ranked[0].id in {"p_rex", "p_salmon"}  # both name Rex and are eaten / adopted: the closest two
    salmon = next(item for item in run.ranked if item.id == "p_salmon")
    assert [p.episode_id for p in salmon.provenance] == ["e4"] and salmon.provenance[0].speaker == ALICE


def test_rank_scores_a_prescription_on_the_parts_it_has(make_run: MakeRun) -> None:
    """Activation spreads over concepts, which prescriptions do not mention: a prescription's score leaves it out and
    is scaled by the share of the weight the other parts hold; every other item is scored on all parts."""
    run = perform(make_run("How do I make a cup of tea?"), Route(), Together(Seed(), Abstract()), Rank())
    w = run.config.scoring.value
    total = w.relevance + w.similarity + w.activation + w.confidence + w.importance + w.recency
    assert {item.kind for item in run.ranked} >= {ItemKind.PRESCRIPTION, ItemKind.PROPOSITION}
    for item in run.ranked:
        c = item.components
        parts = sum(getattr(w, name) * c[name] for name in ("relevance", "similarity", "confidence", "importance"))
        parts += w.recency * c["recency"]
        if item.kind is ItemKind.PRESCRIPTION:
            expected = c["focus"] * parts * total / (total - w.activation) * c["goal_fit"]
        else:
            expected = c["focus"] * (parts + w.activation * c["activation"])
        assert item.score == pytest.approx(expected, abs=1e-5), item.id


def test_rank_breaks_a_tie_by_id(make_run: MakeRun, graph: MemoryGraph) -> None:
    graph.add_episode("x1", "Rex chased a ball", source="x")
    graph.add_episode("x2", "Rex chased a ball", source="y")
    graph.add_proposition("tie_b", "Rex chased a ball", proven_by=["x1"])
    graph.add_proposition("tie_a", "Rex chased a ball", proven_by=["x2"])
    run = perform(make_run("Did Rex chase a ball?"), Route())
    for item_id in ("tie_b", "tie_a"):  # b first: the insertion order is not the ranking's
        run.candidates[item_id] = Candidate(item_id, ItemKind.PROPOSITION)
        run.candidates[item_id].add("dense", 1)
    Rank()(run)
    assert ids(run) == ["tie_a", "tie_b"]
    assert run.ranked[0].score == run.ranked[1].score and run.ranked[0].components == run.ranked[1].components


def test_rank_in_episodic_mode_ranks_the_episodes_behind_the_knowledge(make_run: MakeRun) -> None:
    run = perform(make_run("What did Bob say about his job?"), Route(), Together(Seed(), Abstract()), Rank())
    assert run.types[0] is MemoryType.EPISODIC
    assert {item.kind for item in run.ranked} == {ItemKind.EPISODE}
    assert len(ids(run)) == len(set(ids(run)))  # each episode once, at its best item's rank
    nurse = next(item for item in run.ranked if item.id == "e5")
    assert nurse.found_by[-1] == "provenance:p_nurse" and [p.speaker for p in nurse.provenance] == [BOB]


def test_rank_again_only_with_new_evidence(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?"), Route(), Together(Seed(), Abstract()), Rank())
    first = run.ranked
    Rank(again=True)(run)
    assert run.ranked is first and trace_steps(run)[-1] == "rank"
    Context()(run)
    assert run.unranked_evidence > 0
    Rank(again=True)(run)
    assert run.ranked is not first and run.unranked_evidence == 0
    assert trace_steps(run)[-2:] == ["context", "rank with context"]
    assert trace_detail(run, "rank with context") == {"ranked": len(run.ranked)}
    assert any("context" in item.found_by for item in run.ranked)


# -- context ----------------------------------------------------------------------------------------------------------


def test_context_adds_the_knowledge_of_the_turns_around_the_top_items(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?", recall_config(context_items=1)), Route())
    run.ranked = [ranked(graph, "p_rex", 1.0), ranked(graph, "p_nurse", 0.5)]  # only the first is an anchor
    Context()(run)
    # p_rex was said in e2: after it e3 (a question, no knowledge: itself) and e4 (p_salmon), before it e1 (p_berlin,
    # superseded by p_lisbon, which carries its proof). Nearer first, then closer to the query.
    assert in_list(run, "context") == {"e3": 1, "p_lisbon": 2, "p_salmon": 3}
    assert run.candidates["e3"].kind is ItemKind.EPISODE and run.candidates["p_salmon"].found_by == ["context"]
    assert run.candidates["p_salmon"].similarity is not None
    assert trace_detail(run, "context") == {"anchors": 1, "items": 3, "new": 3}
    assert run.unranked_evidence == 3


def test_context_adds_an_utterance_itself_only_where_episodes_are_searched(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    config = recall_config(context_items=1)
    run = perform(make_run("What does Rex eat?", config, memory_types=[MemoryType.SEMANTIC]), Route())
    run.ranked = [ranked(graph, "p_rex", 1.0)]
    Context()(run)
    assert in_list(run, "context") == {"p_lisbon": 1, "p_salmon": 2}


def test_context_is_off_at_zero_items(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?", recall_config(context_items=0)), Route())
    run.ranked = [ranked(graph, "p_rex", 1.0)]
    assert not Context().runs(run)
    Context()(run)
    assert trace_steps(run) == ["route"] and run.candidates == {} and run.unranked_evidence == 0


# -- pages ------------------------------------------------------------------------------------------------------------


def test_pages_named_by_a_top_items_concept_join(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("Where did Alice go hiking?"), Route())
    run.ranked = [ranked(graph, "p_hike", 1.0)]  # mentions "sintra", whose page is the document wiki-sintra
    assert Pages().runs(run)
    Pages()(run)
    assert trace_detail(run, "pages") == {"named_by_items": ["sintra"], "named_by_query": [], "passages": 1, "new": 1}
    assert in_list(run, "page") == {"p_town": 1} and in_list(run, "named_page") == {}
    assert run.unranked_evidence == 1


def test_pages_named_by_the_query_join(make_run: MakeRun) -> None:
    run = perform(make_run("What is Sintra known for?"), Route())
    Pages()(run)
    assert trace_detail(run, "pages") == {"named_by_items": [], "named_by_query": ["sintra"], "passages": 1, "new": 1}
    assert in_list(run, "named_page") == {"p_town": 1}


def test_pages_run_only_for_knowledge_in_a_space_with_pages(make_run: MakeRun) -> None:
    assert not Pages().runs(perform(make_run("What is Sintra?", memory_types=[MemoryType.EPISODIC]), Route()))
    assert not Pages().runs(perform(make_run("What is Sintra?", recall_config(page_items=0)), Route()))
    no_pages = MemoryGraph(embed, space="toy")
    no_pages.add_episode("e1", "Sintra is lovely", source="chat")
    run = perform(make_run("What is Sintra?", graph=no_pages), Route())
    assert not Pages().runs(run)
    Pages()(run)
    assert trace_steps(run) == ["route"]


# -- when -------------------------------------------------------------------------------------------------------------


def test_when_adds_the_episodes_of_the_time_the_query_names(make_run: MakeRun) -> None:
    now = SESSION_2 + timedelta(days=1)  # the day after session 2
    run = perform(make_run("What did Alice do yesterday?", now=now), Route())
    assert When().runs(run)
    When()(run)
    # Yesterday is session 2's day: its four turns (told within a week of it); e9 first, holding a statement dated
    # by its words ("hiking ... yesterday", 19 March), the others by closeness.
    assert trace_detail(run, "when") == {
        "days": [{"from": "2024-03-20", "to": "2024-03-20"}],
        "episodes": 4,
        "stated": 1,
        "new": 4,
    }
    found = in_list(run, "when")
    assert set(found) == {"p_hike", "p_lisbon", "p_daily", "e7"} and found["p_hike"] == 1
    assert run.candidates["e7"].kind is ItemKind.EPISODE  # a question, no knowledge: itself
    assert run.unranked_evidence == 4


def test_when_reads_nothing_without_now(make_run: MakeRun) -> None:
    run = perform(make_run("What did Alice do yesterday?"), Route())
    assert not When().runs(run)
    When()(run)
    assert trace_steps(run) == ["route"] and run.candidates == {}
    off = perform(make_run("What did Alice do yesterday?", recall_config(when_k=0), now=SESSION_2), Route())
    assert not When().runs(off)


def test_when_without_a_time_in_the_query_finds_nothing(make_run: MakeRun) -> None:
    run = perform(make_run("What does Rex eat?", now=SESSION_2), Route())
    When()(run)
    assert trace_detail(run, "when") == {"days": [], "episodes": 0, "stated": 0, "new": 0}


# -- participants -----------------------------------------------------------------------------------------------------


def test_participants_a_named_speakers_episodes_and_the_content_without_the_name(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    run = perform(make_run("What does Bob do for work?"), Route())
    run.ranked = [ranked(graph, "p_nurse", 1.0)]  # Bob speaks in its provenance
    Participants()(run)
    # Bob said e3, e5 and e7; the content search is over all 12 episodes.
    assert trace_detail(run, "participants") == {
        "named": [BOB],
        "meant": [],
        "content": "What does do for work?",
        "hits": {"participant": 3, "content": 12},
        "new": 9,
    }
    assert set(in_list(run, "participant")) == {"p_nurse", "e3", "e7"}  # e5 proves p_nurse; e3, e7 prove nothing
    # Anyone's episodes stand for their knowledge (the trajectory's steps prove a prescription only: not for it).
    everything = {"p_lisbon", "p_rex", "p_salmon", "p_nurse", "p_daily", "p_hike", "p_town", "e3", "e7"}
    assert set(in_list(run, "content")) == everything


def test_participants_the_asker_meant_by_my(make_run: MakeRun) -> None:
    run = perform(make_run("What is my job?", asker=BOB, addressee=ALICE), Route())
    Participants()(run)
    detail = trace_detail(run, "participants")
    assert (detail["named"], detail["meant"], detail["hits"]) == ([], [BOB], {"participant": 3})
    assert detail["content"] == "What is my job?"
    assert set(in_list(run, "participant")) == {"p_nurse", "e3", "e7"} and in_list(run, "content") == {}


def test_participants_nobody_named_or_meant_adds_nothing(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?"), Route())  # no asker: "my" would mean nobody
    run.ranked = [ranked(graph, "p_nurse", 1.0)]
    Participants()(run)
    assert trace_steps(run) == ["route"] and run.candidates == {}
    assert not Participants().runs(perform(make_run("What is Bob's job?", memory_types=[MemoryType.EPISODIC]), Route()))


# -- hop --------------------------------------------------------------------------------------------------------------


def test_hop_expands_the_top_items_new_concepts_then_stops_at_the_hop_limit(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    run = perform(make_run("Where did Alice go hiking?"), Route())
    run.ranked = [ranked(graph, "p_hike", 1.0, similarity=0.2)]  # alice, hiking, sintra
    run.activated = {"concept:alice"}
    Hop()(run)
    assert trace_steps(run)[1:] == ["controller after hop 1", "hop 2", "rank after hop 2", "controller after hop 2"]
    assert trace_detail(run, "controller after hop 1") == {
        "another_hop": True,
        "reason": "2 new concepts in the top items, best cosine 0.20",
    }
    assert trace_detail(run, "hop 2") == {"concepts": ["hiking", "sintra"]}
    assert trace_detail(run, "controller after hop 2") == {"another_hop": False, "reason": "hop limit 2 reached"}
    assert run.hops == 2 and run.activated == {"concept:alice", "concept:hiking", "concept:sintra"}
    assert in_list(run, "hop:2").keys() == {"p_hike", "p_town"}  # p_town mentions sintra
    assert trace_detail(run, "rank after hop 2") == {"ranked": 2} and set(ids(run)) == {"p_hike", "p_town"}


def test_hop_stops_at_once_at_the_requests_hop_limit(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("Where did Alice go hiking?", hop_limit=1), Route())
    run.ranked = [ranked(graph, "p_hike", 1.0, similarity=0.2)]
    Hop()(run)
    assert trace_steps(run)[1:] == ["controller after hop 1"]
    assert trace_detail(run, "controller after hop 1") == {"another_hop": False, "reason": "hop limit 1 reached"}
    assert run.hops == 1 and run.candidates == {}


def test_hop_stops_when_the_top_is_confident_or_has_no_new_concept(make_run: MakeRun, graph: MemoryGraph) -> None:
    confident = perform(make_run("Where did Alice go hiking?"), Route())
    confident.ranked = [ranked(graph, "p_hike", 1.0, similarity=0.9)]
    Hop()(confident)
    assert trace_detail(confident, "controller after hop 1") == {
        "another_hop": False,
        "reason": "top item already matches closely (cosine 0.90)",
    }
    known = perform(make_run("Where did Alice go hiking?"), Route())
    known.ranked = [ranked(graph, "p_hike", 1.0, similarity=0.2)]
    known.activated = {"concept:alice", "concept:hiking", "concept:sintra"}
    Hop()(known)
    assert trace_detail(known, "controller after hop 1") == {
        "another_hop": False,
        "reason": "the top items mention no concept not yet activated",
    }
    assert confident.hops == known.hops == 1


def test_hop_asks_the_controller_with_the_requests_hop_limit_else_the_configs(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    cases: list[tuple[dict[str, Any], int]] = [({"hop_limit": 3}, 3), ({}, 2)]
    for fields, limit in cases:
        run = perform(make_run("Where did Alice go hiking?", recall_config(hop_limit=2), **fields), Route())
        run.ranked = [ranked(graph, "p_hike", 1.0, similarity=0.2)]
        controller = RecordingController()
        run.tools = replace(run.tools, controller=controller)
        Hop()(run)
        assert controller.calls[0] == (1, limit, 3, 0.2)
        assert [hop_limit for _, hop_limit, _, _ in controller.calls] == [limit] * len(controller.calls)


# -- mmr --------------------------------------------------------------------------------------------------------------

SALMON, DAILY, NURSE = "Rex eats salmon kibble", "Rex eats salmon kibble every day", "Bob works as a nurse in Porto"


def test_mmr_moves_a_near_duplicate_below_the_next_distinct_memory(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?"), Route())
    run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_daily", 0.9), ranked(graph, "p_nurse", 0.8)]
    Mmr()(run)
    assert ids(run) == ["p_salmon", "p_nurse", "p_daily"]
    scores = [item.score for item in run.ranked]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0 and scores[2] < 0.8
    assert [item.components["value"] for item in run.ranked] == [1.0, 0.8, 0.9]
    redundancy = cosine(DAILY, SALMON)
    assert redundancy > 0.75  # a near-duplicate for the toy embedder
    assert run.ranked[0].components["redundancy"] == 0.0
    assert run.ranked[2].components["redundancy"] == pytest.approx(redundancy, abs=1e-5)
    assert trace_detail(run, "mmr") == {
        "trade_off": 0.25,
        "ranked": 3,
        "moved_down": [
            {"id": "p_daily", "from": 2, "to": 3, "closest": "p_salmon", "cosine": round(redundancy, 3)},
        ],
    }


def test_mmr_is_off_at_diversity_zero_and_for_one_item(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?", recall_config(diversity=0.0)), Route())
    run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_daily", 0.9)]
    assert not Mmr().runs(run)
    Mmr()(run)
    assert ids(run) == ["p_salmon", "p_daily"] and "value" not in run.ranked[1].components
    assert trace_steps(run) == ["route"]
    single = perform(make_run("What does Rex eat?"), Route())
    single.ranked = [ranked(graph, "p_salmon", 1.0)]
    assert not Mmr().runs(single)


# -- newer restatements first -----------------------------------------------------------------------------------------


def test_a_later_restatement_by_the_same_speaker_goes_above(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat?"), Route())
    # p_daily (session 2) restates p_salmon (session 1), both said by Alice.
    run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_daily", 0.95), ranked(graph, "p_nurse", 0.5)]
    NewerRestatementsFirst()(run)
    assert ids(run) == ["p_daily", "p_salmon", "p_nurse"]
    assert [item.score for item in run.ranked] == [1.0, 1.0, 0.5]  # it takes the score of the item it stands above
    assert trace_detail(run, "newer restatements first") == {"moved_up": ["p_daily"]}


def test_after_mmr_a_restatement_moves_up_by_its_value_and_scores_still_fall_with_the_rank(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    run = perform(make_run("What does Rex eat?"), Route())
    run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_daily", 0.9), ranked(graph, "p_nurse", 0.8)]
    perform(run, Mmr(), NewerRestatementsFirst())
    assert ids(run) == ["p_daily", "p_salmon", "p_nurse"]
    scores = [item.score for item in run.ranked]
    assert scores == sorted(scores, reverse=True)


def test_a_restatement_stays_if_weaker_earlier_or_said_by_someone_else(make_run: MakeRun, graph: MemoryGraph) -> None:
    def restated(first: str, second: str, second_score: float, speaker: str | None = None) -> list[str]:
        run = perform(make_run("What does Rex eat?"), Route())
        later = ranked(graph, second, second_score)
        if speaker is not None:
            later.provenance = [p.model_copy(update={"speaker": speaker}) for p in later.provenance]
        run.ranked = [ranked(graph, first, 1.0), later]
        NewerRestatementsFirst()(run)
        assert trace_detail(run, "newer restatements first")["moved_up"] == ([] if ids(run)[0] == first else [second])
        return ids(run)

    assert restated("p_salmon", "p_daily", 0.85) == ["p_salmon", "p_daily"]  # below 0.9 of the original's score
    assert restated("p_daily", "p_salmon", 0.95) == ["p_daily", "p_salmon"]  # said before it
    assert restated("p_salmon", "p_daily", 0.95, speaker=BOB) == ["p_salmon", "p_daily"]  # by someone else
    assert restated("p_salmon", "p_daily", 0.95) == ["p_daily", "p_salmon"]  # the control


def test_a_chain_of_restatements_keeps_scores_falling_with_the_rank(make_run: MakeRun) -> None:
    chain = MemoryGraph(embed, space="toy")
    texts = ["Rex eats salmon kibble", "Rex eats salmon kibble every day", "Rex eats salmon kibble every single day"]
    for day, text in enumerate(texts):
        chain.add_episode(f"e{day}", text, source="chat", speaker=ALICE, occurred_at=SESSION_2 + timedelta(days=day))
        chain.add_proposition(f"p{day}", text, proven_by=[f"e{day}"])
    run = perform(make_run("What does Rex eat?", graph=chain), Route())
    run.ranked = [ranked(chain, "p0", 1.0), ranked(chain, "p1", 0.95), ranked(chain, "p2", 0.9)]
    NewerRestatementsFirst()(run)
    assert ids(run) == ["p2", "p1", "p0"]  # each later one above the one it restates (this holds)
    scores = [item.score for item in run.ranked]
    assert scores == sorted(scores, reverse=True)  # [0.95, 1.0, 1.0]: fails


# -- latest version first ---------------------------------------------------------------------------------------------


def test_a_question_about_a_state_puts_the_latest_version_first(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = perform(make_run("What does Rex eat now?"), Route())
    run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_rex", 0.7), ranked(graph, "p_daily", 0.5)]
    assert LatestVersionFirst().runs(run)
    LatestVersionFirst()(run)
    assert ids(run) == ["p_daily", "p_salmon", "p_rex"]
    assert [item.score for item in run.ranked] == [1.0, 1.0, 0.7]
    assert trace_detail(run, "latest version first") == {"latest_first": "p_daily"}


def test_latest_version_first_only_for_a_state_and_a_strong_enough_version(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    def hand_made(query: str, daily: float) -> RecallRun:
        run = perform(make_run(query), Route())
        run.ranked = [ranked(graph, "p_salmon", 1.0), ranked(graph, "p_rex", 0.7), ranked(graph, "p_daily", daily)]
        return run

    no_state = hand_made("What does Rex eat?", 0.5)
    assert not LatestVersionFirst().runs(no_state)
    LatestVersionFirst()(no_state)
    assert ids(no_state) == ["p_salmon", "p_rex", "p_daily"] and trace_steps(no_state) == ["route"]
    weak = hand_made("What does Rex eat now?", 0.3)  # below 0.4 of the first's score
    LatestVersionFirst()(weak)
    assert ids(weak) == ["p_salmon", "p_rex", "p_daily"]
    assert trace_detail(weak, "latest version first") == {"latest_first": None}


# -- prune ------------------------------------------------------------------------------------------------------------


def hand_ranking(graph: MemoryGraph) -> list[Any]:
    # Tokens by the toy counter: 6, 6, 7, 4.
    return [ranked(graph, i, s) for i, s in (("p_rex", 0.9), ("p_daily", 0.8), ("p_nurse", 0.7), ("p_lisbon", 0.6))]


def test_prune_keeps_what_fits_the_token_budget(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = make_run("What does Rex eat?", token_budget=16)
    run.ranked = hand_ranking(graph)
    Prune()(run)
    assert [(item.id, item.tokens) for item in run.items] == [("p_rex", 6), ("p_daily", 6), ("p_lisbon", 4)]
    assert run.pruned == [{"id": "p_nurse", "reason": "7 tokens would exceed the budget of 16"}]
    detail = trace_detail(run, "rerank and prune")
    assert (detail["ranked"], detail["returned"], detail["pruned"]) == (4, 3, run.pruned)
    assert detail["weights"]["relevance"] == 0.5 and detail["cypher_statements"] == run.searcher.queries


def test_prune_keeps_the_limit(make_run: MakeRun, graph: MemoryGraph) -> None:
    run = make_run("What does Rex eat?", limit=2)
    run.ranked = hand_ranking(graph)
    Prune()(run)
    assert [item.id for item in run.items] == ["p_rex", "p_daily"]
    assert run.pruned == [
        {"id": "p_nurse", "reason": "beyond the limit of 2 items"},
        {"id": "p_lisbon", "reason": "beyond the limit of 2 items"},
    ]
    assert run.items[0].score == 0.9 and run.items[0].provenance[0].episode_id == "e2"


def test_prune_uses_the_configs_limit_and_budget_when_the_request_names_none(
    make_run: MakeRun, graph: MemoryGraph
) -> None:
    run = make_run("What does Rex eat?", recall_config(limit=3, token_budget=16))
    run.ranked = hand_ranking(graph)
    Prune()(run)
    assert [item.id for item in run.items] == ["p_rex", "p_daily", "p_lisbon"]
    assert run.pruned == [{"id": "p_nurse", "reason": "7 tokens would exceed the budget of 16"}]
    limited = make_run("What does Rex eat?", recall_config(limit=1))
    limited.ranked = hand_ranking(graph)
    Prune()(limited)
    assert [item.id for item in limited.items] == ["p_rex"] and len(limited.pruned) == 3


# -- together ---------------------------------------------------------------------------------------------------------


class Log:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.threads: dict[str, str] = {}
        self.lock = threading.Lock()

    def add(self, event: str) -> None:
        with self.lock:
            self.events.append(event)


class Fake(Step[str]):
    """A step whose find waits for `after` (another fake's find) to finish, then says it finished."""

    def __init__(self, log: Log, after: threading.Event | None = None, active: bool = True) -> None:
        self.log, self.after, self.active = log, after, active
        self.found = threading.Event()

    def runs(self, run: RecallRun) -> bool:
        return self.active

    def find(self, run: RecallRun) -> str:
        self.log.threads[self.name] = threading.current_thread().name
        if self.after is not None and not self.after.wait(timeout=5):
            return "timed out"  # not side by side: the other find never ran while this one waited
        self.log.add(f"found {self.name}")
        self.found.set()
        return f"from {self.name}"

    def apply(self, run: RecallRun, found: str | None) -> None:
        self.log.add(f"applied {self.name} ({found})")
        run.trace.add(self.name)


class Slowest(Fake):
    name = "slowest"


class Middle(Fake):
    name = "middle"


class Fastest(Fake):
    name = "fastest"


class Inactive(Fake):
    name = "inactive"


def test_together_finds_side_by_side_and_applies_in_declared_order(make_run: MakeRun) -> None:
    log = Log()
    fastest = Fastest(log)
    middle = Middle(log, after=fastest.found)
    slowest = Slowest(log, after=middle.found)  # finishes last, though declared first
    inactive = Inactive(log, active=False)
    run = make_run("What does Rex eat?")
    Together(slowest, inactive, middle, fastest)(run)
    assert log.events == [
        "found fastest",
        "found middle",
        "found slowest",
        "applied slowest (from slowest)",
        "applied middle (from middle)",
        "applied fastest (from fastest)",
    ]
    assert trace_steps(run) == ["slowest", "middle", "fastest"]
    assert log.threads["slowest"] == threading.current_thread().name  # the first finds on the caller's thread
    assert log.threads["middle"].startswith("engram-recall-step")
    assert log.threads["fastest"].startswith("engram-recall-step")
    assert "inactive" not in log.threads  # a step that does not run neither finds nor applies


def test_together_with_no_active_step_does_nothing(make_run: MakeRun) -> None:
    log = Log()
    run = make_run("What does Rex eat?")
    Together(Inactive(log, active=False))(run)
    assert log.events == [] and trace_steps(run) == []


class Early(Step[str]):
    """A step whose find reads through `run.early_result`; it logs on which thread the read ran, and when."""

    name = "early"

    def __init__(self, log: Log, active: bool = True) -> None:
        self.log, self.active = log, active

    def runs(self, run: RecallRun) -> bool:
        return self.active

    def early(self, run: RecallRun) -> Callable[[], str]:
        return self.read

    def read(self) -> str:
        self.log.add(f"read on {threading.current_thread().name.split('_')[0]}")
        return "read"

    def find(self, run: RecallRun) -> str:
        self.log.add("find")
        return run.early_result(self.name, self.read)

    def apply(self, run: RecallRun, found: str | None) -> None:
        self.log.add(f"applied ({found})")


def test_ahead_starts_a_steps_read_on_the_search_threads_and_its_find_takes_that_result(make_run: MakeRun) -> None:
    log = Log()
    run = make_run("What does Rex eat?")
    step = Early(log)
    Ahead(step)(run)
    run.early[step.name].result()  # the read has run, before the step did
    assert log.events == ["read on engram-recall-search"]
    step(run)
    assert log.events == ["read on engram-recall-search", "find", "applied (read)"]  # read once, not again
    assert run.early == {}


def test_without_ahead_a_step_reads_in_its_find_and_ahead_skips_a_step_that_does_not_run(make_run: MakeRun) -> None:
    log = Log()
    run = make_run("What does Rex eat?")
    Ahead(Early(log, active=False))(run)
    assert run.early == {} and log.events == []
    Early(log)(run)
    assert log.events == ["find", "read on MainThread", "applied (read)"]


def test_a_recall_comes_out_the_same_with_its_reads_started_ahead(make_run: MakeRun) -> None:
    query = "How many times did Alice mention her favourite movie?"
    before = [step for step in PIPELINE if not isinstance(step, Ahead)]
    runs = [perform(make_run(query), *pipeline) for pipeline in (before, PIPELINE)]
    plain, ahead = ([(item.id, item.score, item.relevance) for item in run.ranked] for run in runs)
    assert plain == ahead and any(relevance is not None for _, _, relevance in ahead)
    assert trace_detail(runs[0], "relevance") == trace_detail(runs[1], "relevance")


def test_the_pipeline_declares_its_steps_in_order() -> None:
    assert [step.name for step in PIPELINE] == [
        "route",
        "seed | abstract",
        "rank",
        "ahead: relevance",
        "context | pages | when | participants",
        "rank",
        "hop",
        "mmr",
        "newer restatements first",
        "latest version first",
        "in span first",
        "relevance",
        "aggregate",
        "current versions above",
        "earlier versions below",
        "earlier state first",
        "facts first",
        "prune",
    ]
    assert isinstance(PIPELINE[5], Rank) and PIPELINE[5].again and isinstance(PIPELINE[2], Rank)
    assert not PIPELINE[2].again
