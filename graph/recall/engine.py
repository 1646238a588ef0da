"""Recall as a declared pipeline: `PIPELINE` below is every step, in order, with what runs side by side.

Each step reads and writes one `RecallRun` (graph/recall/run.py) and records what it did in the run's trace, so a
caller can see why an item came back (or did not). The step contract is in graph/recall/steps/base.py, every knob in
graph/recall/config.py, every reading of the query's wording in graph/recall/query.py, and memory is read only
through a `Searcher` (graph/recall/searcher.py: Neo4j, or in memory for unit tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import neo4j

from engram.facts.slots import SlotNamer
from graph.recall.config import RECIPES, RecallConfig
from graph.recall.logic.abstract import Abstractor, OfflineAbstractor
from graph.recall.logic.hop import HopController
from graph.recall.logic.route import Router, RuleRouter
from graph.recall.models import RecallRequest, RecallResult
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.presentation import browser_cypher, by_source
from graph.recall.query import QuestionReader
from graph.recall.run import CountTokensFn, EmbedFn, RecallRun, RecallTools
from graph.recall.search_statements import SpaceSizes
from graph.recall.searcher import Searcher
from graph.recall.steps.abstract import Abstract
from graph.recall.steps.aggregate import Aggregate
from graph.recall.steps.base import Ahead, Step, Together
from graph.recall.steps.context import Context
from graph.recall.steps.current_versions import CurrentVersionsAbove
from graph.recall.steps.earlier_versions import EarlierStateFirst, EarlierVersionsBelow
from graph.recall.steps.facts import FactsFirst
from graph.recall.steps.hop import Hop
from graph.recall.steps.in_span import InSpanFirst
from graph.recall.steps.mmr import Mmr
from graph.recall.steps.pages import Pages
from graph.recall.steps.participants import Participants
from graph.recall.steps.prune import Prune
from graph.recall.steps.rank import Rank
from graph.recall.steps.relevance import Relevance
from graph.recall.steps.route import Route
from graph.recall.steps.seed import Seed
from graph.recall.steps.temporal_order import LatestVersionFirst, NewerRestatementsFirst
from graph.recall.steps.when import When
from graph.recall.threads import RecallThreads
from graph.recall.warm import WarmReport, warm_recall

PipelineStep = Step[Any] | Together | Ahead

PIPELINE: tuple[PipelineStep, ...] = (
    Route(),  # the memory kinds to search, the query's vector
    Together(Seed(), Abstract()),  # the seed searches | the query's concepts, their associations, their knowledge
    Rank(),  # fuse the candidate lists, hydrate the best, score them by the value function
    # Start the reads of later steps that need only the question, to run while the steps up to theirs work.
    Ahead(Relevance()),
    # Read the first ranking, one round trip each: the top items' neighbouring utterances | the pages they and the
    # query name | what happened at the times the query names | what the people it names or means said.
    Together(Context(), Pages(), When(), Participants()),
    Rank(again=True),  # only if those added anything
    Hop(),  # while the controller asks: expand the top items' new concepts, rank again
    Mmr(),  # maximal marginal relevance: a near-duplicate gives way to the next distinct memory
    NewerRestatementsFirst(),  # a later restatement by the same speaker goes above what it restates
    LatestVersionFirst(),  # a question about a state: the latest version of the first item goes first
    InSpanFirst(),  # a question naming a time ("last week", "in March"): what happened then goes first
    Relevance(),  # each item's calibrated relevance; the question's concepts no key of the space matches
    Aggregate(),  # a question that counts, adds up or compares over time: every matching memory, its figures
    CurrentVersionsAbove(),  # a returned statement a revision replaced: its current version just above it
    EarlierVersionsBelow(),  # what a revision replaced, just below the current fact (as relevant as it)
    EarlierStateFirst(),  # a question about what held before a change: the replaced versions first
    FactsFirst(),  # a question about a state now: the asked slot's current fact, then its earlier versions
    Prune(),  # the best items within the request's limit, token budget and minimum relevance
)

# Makes a run of a request (RecallRun, or a subclass a pipeline's own steps need).
RunFactory = Callable[[RecallRequest, RecallConfig, Searcher, RecallTools, RecallThreads], RecallRun]

# One searcher per recall (it caches what that recall fetched).
SearcherFactory = Callable[[RecallRequest], Searcher]


class RecallEngine:
    """Runs `pipeline` for each request. Memory is Neo4j's (`driver`, `database`) unless `searchers` is given."""

    def __init__(
        self,
        driver: neo4j.Driver | None,
        database: str,
        embed: EmbedFn,
        count_tokens: CountTokensFn,
        router: Router | None = None,
        abstractor: Abstractor | None = None,
        controller: HopController | None = None,
        config: RecallConfig | None = None,
        read_timeout_s: float | None = None,
        searchers: SearcherFactory | None = None,
        pipeline: Sequence[PipelineStep] = PIPELINE,
    ) -> None:
        # The configuration as given (its explicit knobs), and with each recipe: the engine's own (its `recipe`,
        # ENGRAM_RECALL_RECIPE) is `config`, a request's `recipe` picks another.
        given = config or RecallConfig()
        self._recipes = {name: given.with_recipe(name) for name in RECIPES}
        self.config = self._recipes[given.recipe]
        self._tools = RecallTools(
            embed=embed,
            count_tokens=count_tokens,
            router=router or RuleRouter(),
            abstractor=abstractor or OfflineAbstractor(self.config),
            controller=controller or HopController(self.config.hop.hop_confident_similarity),
            questions=QuestionReader(),
            slots=SlotNamer(embed),
        )
        if searchers is None:
            if driver is None:
                raise ValueError("a recall engine needs a Neo4j driver or a searcher factory")
            searchers = Neo4jSearchers(driver, database, self.config, read_timeout_s)
        self._searchers = searchers
        self._pipeline = tuple(pipeline)
        self._threads = RecallThreads()

    def warm(self) -> WarmReport:
        """Embeds a query, then has Neo4j plan every statement recall sends and opens the connections its searches
        use (graph/recall/warm.py): what the first recalls after a start would otherwise wait for."""
        warm_question = "what did we talk about last week?"
        vector = [float(x) for x in self._tools.embed([warm_question])[0]]
        self._tools.questions.parse(warm_question)  # loads the parser
        if not isinstance(self._searchers, Neo4jSearchers):
            return WarmReport(calls=0, seconds=0.0)  # memory of its own: nothing to plan
        return warm_recall(self._searchers.at, vector, self._threads.searches)

    def close(self) -> None:
        """Stops the engine's threads (after the recalls in flight)."""
        self._threads.close()

    def recall(self, request: RecallRequest) -> RecallResult:
        run = self.run(request, config=None if request.recipe is None else self._recipes[request.recipe])
        return RecallResult(
            query=request.query,
            memory_types=run.types,
            items=run.items,
            sources=by_source(run.items),
            tokens=sum(i.tokens for i in run.items),
            hops=run.hops,
            trace=run.trace,
            cypher=browser_cypher(request.space, run.items),
            reason=run.reason,
            aggregate=run.aggregate,
        )

    def run(
        self,
        request: RecallRequest,
        pipeline: Sequence[PipelineStep] | None = None,
        config: RecallConfig | None = None,
        make: RunFactory = RecallRun,
    ) -> RecallRun:
        """Runs `pipeline` (the engine's unless given) for `request` and returns the finished run. Another pipeline
        of the same steps (proactive recall, graph/recall/associate/) runs on this engine's searchers and threads,
        with its own `config` and run type (`make`) where given."""
        run = make(request, config or self.config, self._searchers(request), self._tools, self._threads)
        for step in self._pipeline if pipeline is None else pipeline:
            step(run)
        return run


class Neo4jSearchers:
    """A `GraphSearcher` for each recall, sharing the space sizes counted in the last `space_sizes_ttl_s`."""

    def __init__(self, driver: neo4j.Driver, database: str, config: RecallConfig, timeout_s: float | None) -> None:
        self._driver = driver
        self._database = database
        self._config = config
        self._timeout_s = timeout_s  # each statement's transaction timeout (None: the server's default)
        self._sizes = SpaceSizes(config.seed.search.space_sizes_ttl_s)

    def __call__(self, request: RecallRequest) -> GraphSearcher:
        return self.at(request.space, request.as_of, None, request.scope.properties(), known_at=request.known_at)

    def at(
        self,
        space: str,
        as_of: datetime | None,
        sizes: SpaceSizes | None,
        scope: dict[str, Any] | None = None,
        known_at: datetime | None = None,
    ) -> GraphSearcher:
        """A searcher of `space` at `as_of` (world time) and `known_at` (memory time); `sizes`: its label counts
        (None: those counted in the last TTL)."""
        config = self._config
        return GraphSearcher(
            self._driver,
            self._database,
            space,
            as_of,
            sizes or self._sizes,
            own_indexes=config.seed.own_indexes,
            space_statistics=config.seed.space_statistics,
            # No distinctive words where they would not change a vote (and the trace would name them for nothing).
            distinctive_share=config.seed.distinctive_share if config.seed.distinctive_exponent else 0.0,
            timeout_s=self._timeout_s,
            limits=config.seed.search,
            scope=scope,
            known_at=known_at,
        )
