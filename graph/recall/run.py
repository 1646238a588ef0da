"""One recall in progress: the request, what the steps share (the query vector, the searcher, the candidates) and
the trace they write."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from graph.recall.candidates import Candidate
from graph.recall.models import MemoryType, RecallRequest, TraceStep
from graph.recall.search import GraphSearcher, Hit
from graph.recall.threads import RecallThreads
from graph.recall.tuning import RecallTuning
from graph.recall.value import DENSE_LISTS, LEXICAL_LISTS, distinctive_strength, match_strength


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


@dataclass
class RecallRun:
    request: RecallRequest
    types: list[MemoryType]  # the memory kinds searched, most wanted first (the route)
    vector: list[float]  # the query's embedding
    searcher: GraphSearcher
    tuning: RecallTuning
    trace: Trace
    threads: RecallThreads  # the engine's: searches and side steps run on them
    candidates: dict[str, Candidate] = field(default_factory=dict)
    activated: set[str] = field(default_factory=set)  # concepts already expanded (a later hop skips them)
    hops: int = 1

    def vote(self, name: str, hit: Hit) -> float:
        """How much `hit` of list `name` counts in the fusion: a dense search's hit by how well it matches, a
        full-text one by how much of the query's distinctive words it holds."""
        if name in LEXICAL_LISTS:
            return distinctive_strength(hit.coverage, self.tuning.distinctive_exponent, self.tuning.distinctive_floor)
        if name not in DENSE_LISTS:
            return 1.0
        return match_strength(hit.score, self.tuning.vote_floor, self.tuning.vote_full)
