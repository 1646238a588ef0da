"""Recall: route, seed, abstract, rank, context, hop, diversify, prune (each step in graph/recall/steps/).

`RecallEngine.recall` reads as the pipeline: every step is recorded in the trace so a caller can see why an item
came back (or did not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.params import vector_param
from graph.recall.abstraction import Abstractor, OfflineAbstractor
from graph.recall.candidates import Ranked
from graph.recall.controller import HopController
from graph.recall.models import MemoryType, RecallRequest, RecallResult, TraceStep
from graph.recall.participants import named_participants, persons_meant
from graph.recall.presentation import browser_cypher, by_source
from graph.recall.router import Router, RuleRouter
from graph.recall.run import RecallRun, Trace
from graph.recall.search import GraphSearcher, SpaceSizes
from graph.recall.steps.abstract import abstract, join_abstraction
from graph.recall.steps.context import add_context
from graph.recall.steps.diversify import diversify
from graph.recall.steps.hop import hop
from graph.recall.steps.pages import join_pages, search_pages
from graph.recall.steps.participants import join_participants, search_participants
from graph.recall.steps.prune import prune
from graph.recall.steps.rank import rank
from graph.recall.steps.seed import seed
from graph.recall.steps.when import join_when, search_when
from graph.recall.threads import RecallThreads
from graph.recall.tuning import RecallTuning
from graph.recall.value import ValueWeights

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
CountTokensFn = Callable[[str], int]


class RecallEngine:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        embed: EmbedFn,
        count_tokens: CountTokensFn,
        router: Router | None = None,
        abstractor: Abstractor | None = None,
        controller: HopController | None = None,
        weights: ValueWeights | None = None,
        tuning: RecallTuning | None = None,
        read_timeout_s: float | None = None,
    ) -> None:
        self._driver = driver
        self._read_timeout_s = read_timeout_s  # each statement's transaction timeout (None: the server's default)
        self._database = database
        self._embed = embed
        self._count_tokens = count_tokens
        self._router = router or RuleRouter()
        self._abstractor = abstractor or OfflineAbstractor()
        self._controller = controller or HopController()
        self._weights = weights or ValueWeights()
        self._tuning = tuning or RecallTuning()
        self._space_sizes = SpaceSizes()
        self._threads = RecallThreads()

    def close(self) -> None:
        """Stops the engine's threads (after the recalls in flight)."""
        self._threads.close()

    def recall(self, request: RecallRequest) -> RecallResult:
        run = self._route(request)
        # Abstraction, propagation and expansion need only the query, not the seeds: they run while the seed
        # searches do, and their candidates join after the seeds' (so the merge order stays the same).
        abstraction = self._threads.steps.submit(abstract, run, self._abstractor)
        seed(run)
        join_abstraction(run, abstraction.result())
        ranked = self._rank(run)
        run.trace.append(TraceStep(step="rank", detail={"ranked": len(ranked), "hydrated": len(run.searcher.hydrated)}))
        ranked = self._context(run, ranked)
        ranked = hop(run, ranked, self._controller, lambda: self._rank(run))
        if self._tuning.diversity > 0:
            ranked = diversify(run, ranked)
        return self._prune(run, ranked)

    # -- steps -------------------------------------------------------------------------------------------

    def _route(self, request: RecallRequest) -> RecallRun:
        """The memory kinds to search (the request's, or the router's reading of the query) and the query vector."""
        trace = Trace()
        types = request.memory_types or self._router.route(request.query)
        trace.append(TraceStep(step="route", detail={"memory_types": [t.value for t in types]}))
        searcher = GraphSearcher(
            self._driver,
            self._database,
            request.space,
            request.as_of,
            self._space_sizes,
            own_indexes=self._tuning.own_indexes,
            space_statistics=self._tuning.space_statistics,
            # No distinctive words where they would not change a vote (and the trace would name them for nothing).
            distinctive_share=self._tuning.distinctive_share if self._tuning.distinctive_exponent else 0.0,
            timeout_s=self._read_timeout_s,
        )
        vector = vector_param(self._embed([request.query])[0])
        return RecallRun(request, types, vector, searcher, self._tuning, trace, self._threads)

    def _rank(self, run: RecallRun) -> list[Ranked]:
        return rank(run, self._weights)

    def _context(self, run: RecallRun, ranked: list[Ranked]) -> list[Ranked]:
        """The first ranking's conversational context, the pages the query and its top items name, what happened
        at the times the query names (with `now`) and, when the query names someone speaking in it or means the asker
        or addressee, their episodes; ranked again if any of them added anything."""
        request = run.request
        named = named_participants(request.query, {p.speaker for item in ranked for p in item.provenance})
        meant = [p for p in persons_meant(request.query, request.asker, request.addressee) if p not in named]
        knowledge = MemoryType.SEMANTIC in run.types
        # They are independent: the page, time and participant searches run while the context query does.
        search = pages = when = None
        if (named or meant) and self._tuning.participant_k and knowledge:
            search = self._threads.steps.submit(search_participants, run, named, meant, self._embed)
        if self._tuning.page_items and knowledge and run.searcher.has_pages():
            pages = self._threads.searches.submit(search_pages, run, ranked)  # one round trip
        if request.now is not None and self._tuning.when_k:
            when = self._threads.searches.submit(search_when, run)  # at most one round trip
        merged = add_context(run, ranked) if self._tuning.context_items else 0
        if pages is not None:
            merged += join_pages(run, pages.result())
        if when is not None:
            merged += join_when(run, when.result())
        if search is not None:
            merged += join_participants(run, search.result())
        if not merged:
            return ranked
        ranked = self._rank(run)
        run.trace.append(TraceStep(step="rank with context", detail={"ranked": len(ranked)}))
        return ranked

    def _prune(self, run: RecallRun, ranked: list[Ranked]) -> RecallResult:
        request = run.request
        items, pruned = prune(ranked, request.token_budget, request.limit, self._count_tokens)
        detail = {
            "weights": self._weights.__dict__,
            "ranked": len(ranked),
            "returned": len(items),
            "pruned": pruned[:20],
            "cypher_statements": run.searcher.queries,
        }
        run.trace.append(TraceStep(step="rerank and prune", detail=detail))
        return RecallResult(
            query=request.query,
            memory_types=run.types,
            items=items,
            sources=by_source(items),
            tokens=sum(i.tokens for i in items),
            hops=run.hops,
            trace=run.trace,
            cypher=browser_cypher(request.space, items),
        )
