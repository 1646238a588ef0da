"""A small in-memory memory and the pieces to recall over it without services (the toy embedder, `MemorySearcher`).

`chat_memory()` is one space holding:
- a chat between Alice and Bob across two dated sessions ("chat-1" on 1 March 2024, "chat-2" on 20 March 2024), and
  what was learnt from it: propositions with concepts, associations between the concepts;
- a fact and its update: "Alice lives in Berlin" (session 1) is superseded by "Alice lives in Lisbon" (session 2);
- a restatement: Rex's food, said again in session 2 (the later one is the current state);
- a document that is the page of the concept "sintra";
- a trajectory with an intent ("make a cup of tea") and the prescription that solves it.

The ids are short and readable: e<n> episodes, p_<what> propositions, i_tea / r_tea the intent and prescription.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from engram.facts.slots import SlotNamer
from graph.recall.candidates import Ranked
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.logic.abstract import OfflineAbstractor
from graph.recall.logic.hop import HopController
from graph.recall.logic.route import RuleRouter
from graph.recall.models import ItemKind, Provenance, RecallRequest
from graph.recall.query import QuestionReader
from graph.recall.run import RecallRun, RecallTools
from graph.recall.steps.base import Ahead, Step, Together
from graph.recall.threads import RecallThreads
from tests.support.memory_searcher import MemoryGraph, MemorySearcher
from tests.support.toy_embedder import ToyEmbedder

SPACE = "toy"
SESSION_1 = datetime(2024, 3, 1, 10, tzinfo=UTC)
SESSION_2 = datetime(2024, 3, 20, 10, tzinfo=UTC)
BETWEEN = datetime(2024, 3, 10, tzinfo=UTC)  # after session 1 was recorded, before session 2
AFTER = datetime(2024, 4, 1, tzinfo=UTC)  # after everything
BEFORE = datetime(2024, 2, 1, tzinfo=UTC)  # before anything was recorded
ALICE, BOB = "Alice", "Bob"

EMBEDDER = ToyEmbedder()
QUESTIONS = QuestionReader()  # one parser for every run (spaCy loads once)


def embed(texts: Sequence[str]) -> NDArray[np.float32]:
    return EMBEDDER.encode(texts)


def count_tokens(text: str) -> int:
    return EMBEDDER.count_tokens(text)


def minutes(start: datetime, n: int) -> datetime:
    return start + timedelta(minutes=n)


def chat_memory() -> MemoryGraph:
    g = MemoryGraph(embed, space=SPACE, now=SESSION_1)  # what is added is recorded at g.now
    # -- session 1 ------------------------------------------------------------------------------------------------
    s1 = "chat-1"
    g.add_episode("e1", "Hi Bob, I live in Berlin", source=s1, speaker=ALICE, occurred_at=minutes(SESSION_1, 0))
    g.add_episode("e2", "I adopted a beagle named Rex", source=s1, speaker=ALICE, occurred_at=minutes(SESSION_1, 1))
    g.add_episode("e3", "What does Rex eat?", source=s1, speaker=BOB, occurred_at=minutes(SESSION_1, 2))
    g.add_episode("e4", "Rex eats salmon kibble", source=s1, speaker=ALICE, occurred_at=minutes(SESSION_1, 3))
    g.add_episode("e5", "I work as a nurse in Porto", source=s1, speaker=BOB, occurred_at=minutes(SESSION_1, 4))
    g.add_proposition("p_berlin", "Alice lives in Berlin", proven_by=["e1"], concepts=["alice", "berlin"])
    g.add_proposition(
        "p_rex", "Alice adopted a beagle named Rex", proven_by=["e2"], concepts=["alice", "rex", "beagle"]
    )
    g.add_proposition("p_salmon", "Rex eats salmon kibble", proven_by=["e4"], concepts=["rex", "kibble"])
    g.add_proposition("p_nurse", "Bob works as a nurse in Porto", proven_by=["e5"], concepts=["bob", "nurse", "porto"])
    # -- session 2 ------------------------------------------------------------------------------------------------
    g.now = SESSION_2
    s2 = "chat-2"
    g.add_episode("e6", "I moved to Lisbon last month", source=s2, speaker=ALICE, occurred_at=minutes(SESSION_2, 0))
    g.add_episode("e7", "Do you like Lisbon?", source=s2, speaker=BOB, occurred_at=minutes(SESSION_2, 1))
    g.add_episode("e8", "Rex eats salmon kibble every day", source=s2, speaker=ALICE, occurred_at=minutes(SESSION_2, 2))
    g.add_episode(
        "e9", "I went hiking in Sintra yesterday", source=s2, speaker=ALICE, occurred_at=minutes(SESSION_2, 3)
    )
    g.add_proposition(
        "p_lisbon",
        "Alice lives in Lisbon",
        proven_by=["e6"],
        concepts=["alice", "lisbon"],
        valid_from=datetime(2024, 2, 1, tzinfo=UTC),
    )
    g.supersede("p_lisbon", "p_berlin", reason="updated")
    g.add_proposition("p_daily", "Rex eats salmon kibble every day", proven_by=["e8"], concepts=["rex", "kibble"])
    g.add_proposition(
        "p_hike",
        "Alice went hiking in Sintra",
        proven_by=["e9"],
        concepts=["alice", "hiking", "sintra"],
        valid_from=datetime(2024, 3, 19, tzinfo=UTC),
    )
    # -- a document, the page of the concept "sintra" --------------------------------------------------------------
    g.add_source("wiki-sintra", page_title="Sintra")
    g.add_episode("w1", "Sintra is a town near Lisbon known for its palaces", source="wiki-sintra")
    g.add_proposition("p_town", "Sintra is a town near Lisbon", proven_by=["w1"], concepts=["sintra", "lisbon"])
    # -- a trajectory: an intent and the prescription solving it -----------------------------------------------------
    g.add_episode("t1", "go to the kitchen and fill the kettle", source="trajectory-1")
    g.add_episode("t2", "boil the water and steep the tea bag", source="trajectory-1")
    g.add_intent("i_tea", "make a cup of tea")
    g.add_prescription(
        "r_tea",
        "To make a cup of tea: 1. fill the kettle 2. boil the water 3. steep the tea bag",
        intent="i_tea",
        proven_by=["t1", "t2"],
        return_score=9.0,
    )
    g.refresh_associations()
    return g


class MakeRun(Protocol):
    def __call__(
        self, query: str, config: RecallConfig | None = None, graph: MemoryGraph | None = None, **fields: Any
    ) -> RecallRun: ...


class MakeEngine(Protocol):
    def __call__(self, config: RecallConfig | None = None, graph: MemoryGraph | None = None) -> RecallEngine: ...


def recall_config(**knobs: Any) -> RecallConfig:
    """The defaults with `knobs` changed (never a .env file's: pydantic-settings' `_env_file`, unknown to mypy)."""
    return RecallConfig(_env_file=None, **knobs)  # type: ignore[call-arg]


def request(query: str, **fields: Any) -> RecallRequest:
    return RecallRequest(space=SPACE, query=query, **fields)


def tools(config: RecallConfig) -> RecallTools:
    return RecallTools(
        embed=embed,
        count_tokens=count_tokens,
        router=RuleRouter(),
        abstractor=OfflineAbstractor(config),
        controller=HopController(config.hop.hop_confident_similarity),
        questions=QUESTIONS,
        slots=SlotNamer(embed),
    )


def new_run(graph: MemoryGraph, threads: RecallThreads, query: str, config: RecallConfig, **fields: Any) -> RecallRun:
    req = request(query, **fields)
    return RecallRun(req, config, MemorySearcher(graph, req.as_of, known_at=req.known_at), tools(config), threads)


def new_engine(graph: MemoryGraph, config: RecallConfig | None = None) -> RecallEngine:
    return RecallEngine(
        None,
        "",
        embed,
        count_tokens,
        config=config,
        searchers=lambda req: MemorySearcher(graph, req.as_of, known_at=req.known_at),
    )


def perform(run: RecallRun, *steps: Step[Any] | Together | Ahead) -> RecallRun:
    """Runs `steps` on `run`, in order (the pipeline's steps before the one under test)."""
    for step in steps:
        step(run)
    return run


def trace_steps(run: RecallRun) -> list[str]:
    return [step.step for step in run.trace]


def trace_detail(run: RecallRun, name: str) -> dict[str, Any]:
    (detail,) = [step.detail for step in run.trace if step.step == name]
    return detail


def ranked(graph: MemoryGraph, item_id: str, score: float, similarity: float = 0.3) -> Ranked:
    """A ranked proposition of `graph` with `score`, its provenance as hydrate gives it (for a hand-made ranking)."""
    p = graph.propositions[item_id]
    proofs = [graph.episodes[e] for e in p.episodes]
    provenance = [
        Provenance(
            episode_id=e.id,
            external_id=e.external_id or "",
            source_id=e.source_id,
            speaker=e.speaker or "",
            text=e.text,
            occurred_at=e.occurred_at,
        )
        for e in proofs
    ]
    components = {"similarity": similarity}
    return Ranked(item_id, ItemKind.PROPOSITION, p.text, score, components, provenance, p.valid_from, ["dense"])
