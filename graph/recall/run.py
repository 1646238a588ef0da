"""One recall in progress: the request, what the steps share (the query vector, the searcher, the candidates, the
ranking) and the trace they write. Every step reads and writes this, and nothing else."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from engram.facts.slots import SlotNamer
from graph.aggregate.models import AggregateResult
from graph.recall.candidates import Candidate, Ranked
from graph.recall.config import RecallConfig
from graph.recall.hits import ConceptHit, Hit
from graph.recall.logic.abstract import Abstractor
from graph.recall.logic.hop import HopController
from graph.recall.logic.relevance import QueryCoverage
from graph.recall.logic.route import Router
from graph.recall.models import MemoryType, RecallItem, RecallRequest, TraceStep
from graph.recall.query import QuestionReader
from graph.recall.reading import QuestionReading, read_question
from graph.recall.searcher import Searcher
from graph.recall.threads import RecallThreads
from graph.recall.value import DENSE_LISTS, LEXICAL_LISTS, distinctive_strength, match_strength

T = TypeVar("T")
EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
CountTokensFn = Callable[[str], int]


class Trace(list[TraceStep]):
    """Trace steps stamped with the time since the previous step (so the steps add up to the whole)."""

    def __init__(self) -> None:
        super().__init__()
        self._mark = time.perf_counter()

    def append(self, step: TraceStep) -> None:
        now = time.perf_counter()
        step.ms = round(1000 * (now - self._mark), 2)
        self._mark = now
        super().append(step)

    def add(self, step: str, **detail: Any) -> None:
        self.append(TraceStep(step=step, detail=detail))


@dataclass(frozen=True)
class RecallTools:
    """What the steps call out to besides the searcher: the embedder, the token counter, the question's parse and
    the replaceable readers (a model may stand behind the router, the abstractor and the hop controller)."""

    embed: EmbedFn
    count_tokens: CountTokensFn
    router: Router
    abstractor: Abstractor
    controller: HopController
    questions: QuestionReader
    slots: SlotNamer | None = None  # names the slots a question asks, as ingestion names facts' (facts first)


@dataclass
class RecallRun:
    request: RecallRequest
    config: RecallConfig
    searcher: Searcher
    tools: RecallTools
    threads: RecallThreads  # the engine's: steps of a group and single searches run on them
    trace: Trace = field(default_factory=Trace)
    types: list[MemoryType] = field(default_factory=list)  # the memory kinds searched, most wanted first (route)
    vector: list[float] = field(default_factory=list)  # the query's embedding (route)
    candidates: dict[str, Candidate] = field(default_factory=dict)
    activated: set[str] = field(default_factory=set)  # concepts already expanded (a later hop skips them)
    ranked: list[Ranked] = field(default_factory=list)  # the current ranking, best first
    unranked_evidence: int = 0  # hits merged into the candidates since the last ranking
    hops: int = 1
    items: list[RecallItem] = field(default_factory=list)  # what is returned (prune)
    pruned: list[dict[str, Any]] = field(default_factory=list)  # what was not, and why
    query_concepts: list[ConceptHit] = field(default_factory=list)  # the query's concepts (abstract)
    coverage: QueryCoverage | None = None  # the question's concepts the space's keys match (relevance)
    reason: str | None = None  # why nothing is returned, when nothing is (prune)
    unfilled: str | None = None  # the subject is known but nothing fills the asked slot (facts first), and why
    aggregate: AggregateResult | None = None  # the computation a counting / summing question asks for (aggregate)
    early: dict[str, Future[Any]] = field(default_factory=dict)  # step name -> its read started ahead (steps/base.py)

    @cached_property
    def reading(self) -> QuestionReading:
        """The question read once (graph/recall/reading.py)."""
        r = self.request
        return read_question(self.tools.questions.parse(r.query), r.query, r.asker, r.now, r.as_of)

    @property
    def limit(self) -> int:
        return self.request.limit or self.config.request.limit

    @property
    def token_budget(self) -> int:
        return self.request.token_budget or self.config.request.token_budget

    @property
    def min_relevance(self) -> float:
        minimum = self.request.min_relevance
        return self.config.request.min_relevance if minimum is None else minimum

    @property
    def hop_limit(self) -> int:
        return self.request.hop_limit or self.config.request.hop_limit

    def early_result(self, name: str, read: Callable[[], T]) -> T:
        """What step `name`'s read started ahead (`Ahead`, graph/recall/steps/base.py) gave, or `read()` now where
        none was started (a pipeline without `Ahead`)."""
        started = self.early.pop(name, None)
        return read() if started is None else cast(T, started.result())

    def vote(self, name: str, hit: Hit) -> float:
        """How much `hit` of list `name` counts in the fusion: a dense search's hit by how well it matches, a
        full-text one by how much of the query's distinctive words it holds."""
        config = self.config
        if name in LEXICAL_LISTS:
            return distinctive_strength(hit.coverage, config.seed.distinctive_exponent, config.seed.distinctive_floor)
        if name not in DENSE_LISTS:
            return 1.0
        return match_strength(hit.score, config.seed.vote_floor, config.seed.vote_full)
