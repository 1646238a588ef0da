"""Every knob of recall, with its default, in one typed configuration.

`RecallConfig` is read from the environment (`ENGRAM_RECALL_SEED_K=60`; nested groups with a double underscore:
`ENGRAM_RECALL_VALUE__RECENCY=0.05`, `ENGRAM_RECALL_SEARCH__MAX_FETCH=4096`; the list weights as JSON:
`ENGRAM_RECALL_LIST_WEIGHTS='{"fulltext": 2.5}'`) or built in code (`RecallConfig(diversity=0.0)`). Each field says in
one line why it exists; where each default was chosen and what it measured is in docs/tuning.md (one row per field,
kept in step by a unit test). A request sets its own limit, token budget, hops and memory types (`RecallRequest`);
the fields below are their defaults.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.aggregate.config import AggregateConfig
from graph.recall.arguments import HOP_LIMIT, LIMIT, MIN_RELEVANCE, TOKEN_BUDGET


class ValueWeights(BaseModel):
    """The value function's weights (relative: rankings and diversification use scores relative to the best)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relevance: float = Field(default=0.50, ge=0, description="reciprocal-rank fusion of every list that found the item")
    similarity: float = Field(
        default=0.15, ge=0, description="exact cosine between the query and the item (clipped at 0)"
    )
    activation: float = Field(default=0.10, ge=0, description="activation spread from the query's concepts")
    confidence: float = Field(default=0.04, ge=0, description="the item's extraction / reliability confidence")
    importance: float = Field(default=0.03, ge=0, description="the item's importance (concept centrality)")
    recency: float = Field(default=0.03, ge=0, description="newer items a little higher, oldest 0, newest 1")
    focus: float = Field(
        default=0.15, ge=0, description="exponent discounting an item by how many statements its utterance yielded"
    )
    focus_after: int = Field(default=5, ge=1, description="statements an utterance may yield before the focus discount")


class SearchLimits(BaseModel):
    """How the Neo4j searcher reaches a space's nodes: exact scans for small spaces, over-fetch from shared indexes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_fetch: int = Field(default=8192, ge=16, description="most rows one over-fetch asks a shared index for")
    exact_scan_max: int = Field(
        default=5000, ge=0, description="up to this many nodes of a label, scan exactly, not by ANN"
    )
    scoped_fulltext_max: int = Field(
        default=20_000, ge=0, description="up to this many nodes, scope full-text queries to the space inside the index"
    )
    exact_fallback_max: int = Field(
        default=20_000,
        ge=0,
        description="up to this size, a space crowded out of a shared vector index is scanned exactly",
    )
    scope_fulltext_above: int = Field(
        default=4096,
        ge=16,
        description="an unscoped full-text query needing more rows than this is scoped to the space",
    )
    rescore_pool: int = Field(
        default=4, ge=1, description="full-text pool (x k) rescored with the space's own statistics"
    )
    space_sizes_ttl_s: float = Field(default=30.0, ge=0, description="how long a space's label counts are reused")


class RelevanceModel(BaseModel):
    """The logistic calibration of an item's relevance (graph/recall/logic/relevance.py): fitted by
    bench/abstention.py."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    intercept: float = Field(default=-2.371, description="the log-odds of relevance with every feature at 0")
    similarity: float = Field(default=0.779, description="weight of the item's cosine to the query")
    score_share: float = Field(default=-0.275, description="weight of the item's score against the best item's")
    term_coverage: float = Field(default=2.326, description="weight of the question's content words the item holds")
    phrase_coverage: float = Field(default=1.153, description="weight of the question's phrases the item holds whole")
    missing_coverage: float = Field(
        default=-0.21, description="weight of the question's phrases no concept key matches that the item holds whole"
    )
    concept_coverage: float = Field(
        default=0.003, description="weight of the question's concepts that are concept keys of the space"
    )
    support: float = Field(
        default=1.838, description="weight of the most the first items hold of the phrases no concept key matches"
    )


class AssociateConfig(BaseModel):
    """Proactive recall (`associate`, graph/recall/associate/): the paths from an utterance to a memory worth
    surfacing, and the bar a memory must clear."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    limit: int = Field(default=10, ge=1, le=50, description="memories surfaced when a request names no limit")
    min_similarity: float = Field(
        default=0.3, ge=0, le=1, description="cosine a memory reached only by its wording must have to surface"
    )
    path_min_similarity: float = Field(
        default=0.05, ge=0, le=1, description="cosine a memory reached by a graph path must have to surface"
    )
    concept_min_score: float = Field(
        default=0.8, ge=0, le=1, description="vector score of an utterance's concept for it to be a path (key: 1)"
    )
    stated_similarity: float = Field(
        default=0.9, ge=0, le=1, description="cosine from which the utterance itself states the memory (left out)"
    )
    two_hop_fanout: int = Field(default=6, ge=0, description="associations followed per concept on the second hop")
    two_hop_decay: float = Field(default=0.5, ge=0, le=1, description="activation kept on the second hop")
    recurring_weeks: int = Field(default=26, ge=1, le=520, description="weeks back a recurring time is looked for")
    recurring_k: int = Field(default=25, ge=0, description="episodes of a recurring time joined (0: off)")
    feeling_k: int = Field(default=25, ge=0, description="episodes naming the utterance's feeling joined (0: off)")
    sitting_items: int = Field(default=3, ge=1, description="top memories whose sitting's other utterances join")
    sitting_hours: float = Field(
        default=2.0, gt=0, description="hours either side of a memory that count as its sitting"
    )
    sitting_k: int = Field(default=0, ge=0, description="utterances of those sittings joined (0: off)")
    rrf_k: int = Field(
        default=40, ge=1, description="associate's reciprocal-rank fusion constant (recall's `rrf_k` is for questions)"
    )
    list_weights: dict[str, float] = Field(
        default_factory=lambda: {"concepts": 0.0, "two_hop": 0.0, "recurring": 3.0, "feeling": 2.0, "sitting": 1.0},
        description="the fusion weights of associate's lists, over recall's",
    )
    value: ValueWeights = Field(
        default_factory=lambda: ValueWeights(
            relevance=1.0, similarity=0.0, activation=0.0, confidence=0.0, importance=0.0, recency=0.0, focus=0.0
        ),
        description="associate's value function (recall's weights are for questions)",
    )


DEFAULT_LIST_WEIGHTS: dict[str, float] = {
    "fulltext": 2.0,
    "episode_fulltext": 2.0,
    "prescription_fulltext": 2.0,
    "prescription_dense": 0.5,
    "intent_dense": 0.5,
    "context": 3.0,
    "participant": 3.0,
    "content": 2.0,
    "page": 5.0,
    "named_page": 2.0,
    "when": 3.0,
}


# Named recall recipes: the knobs a user turns, set together for one kind of recall (docs/tuning.md, "Recipes").
# A recipe sets only knobs read by each recall run (never the searcher's or the abstractor's, which an engine builds
# once), and never a fitted coefficient. A knob set explicitly (in code or the environment) wins over the recipe's.
RECIPES: dict[str, dict[str, Any]] = {
    # The defaults below, as fitted and measured (docs/benchmarks.md).
    "default": {},
    # One hop and none of the late steps that fetch more or reorder by vectors: the lowest latency.
    "fast": {
        "hop_limit": 1,
        "seed_k": 20,
        "rerank_pool": 60,
        "context_items": 0,
        "page_items": 0,
        "when_k": 0,
        "participant_k": 0,
        "diversity": 0.0,
        "restatement": 0.0,
        "latest": 0.0,
        "current_versions": False,
        "earlier_versions": 0,
    },
    # Wider lists, a larger pool and one more hop, and the earlier version of a fact below it: the most recall.
    "thorough": {
        "hop_limit": 3,
        "seed_k": 80,
        "rerank_pool": 240,
        "expand_concepts": 40,
        "per_concept": 20,
        "context_items": 20,
        "page_items": 10,
        "earlier_versions": 1,
    },
    # Further through the concept graph: more associated concepts per concept, more activation passed on, more hops.
    "associate": {
        "hop_limit": 3,
        "concept_fanout": 16,
        "propagation": 0.7,
        "expand_concepts": 40,
        "hop_decay": 0.7,
        "hop_top_items": 10,
    },
}

# The coefficients fitted on a development half (bench/abstention.py, bench/longmemeval.py, bench/locomo_recall.py:
# docs/tuning.md), apart from the knobs a user turns: a recipe never sets them, and changing one means fitting again.
FITTED_COEFFICIENTS: tuple[str, ...] = (
    "rrf_k",
    "list_weights",
    "vote_floor",
    "vote_full",
    "distinctive_share",
    "distinctive_exponent",
    "distinctive_floor",
    "value",
    "relevance",
    "goal_substitution",
    "goal_strength",
    "restatement_closeness",
    "latest_closeness",
    "span_closeness",
    "abstract_min_similarity",
    "hop_confident_similarity",
)


class RecallConfig(BaseSettings):
    """The recall pipeline's configuration (graph/recall/engine.py `PIPELINE` lists the steps these knobs steer).

    `recipe` (ENGRAM_RECALL_RECIPE) names a preset of `RECIPES`; `with_recipe` gives the configuration of another
    (a request's `recipe`). The fitted coefficients are listed in `FITTED_COEFFICIENTS`."""

    model_config = SettingsConfigDict(
        env_prefix="ENGRAM_RECALL_", env_nested_delimiter="__", env_file=".env", extra="ignore", frozen=True
    )

    recipe: str = Field(default="default", description="the named preset of user knobs (RECIPES) recall runs with")

    # -- request defaults (a request may set its own) ----------------------------------------------------------
    # Bounded as a request's own (graph/recall/arguments.py).
    limit: int = LIMIT.field(default=25, description="items returned when a request names no limit")
    token_budget: int = TOKEN_BUDGET.field(default=1024, description="tokens returned when a request names no budget")
    hop_limit: int = HOP_LIMIT.field(default=2, description="hops when a request names none")
    min_relevance: float = MIN_RELEVANCE.field(
        default=0.0, description="no item when none reaches this relevance (0: off; fitted: 0.375)"
    )

    # -- seed and fusion ---------------------------------------------------------------------------------------
    seed_k: int = Field(default=40, ge=1, description="hits per seed list (dense / full-text, knowledge / episodes)")
    rrf_k: int = Field(default=20, ge=1, description="reciprocal-rank fusion constant: lower trusts the top ranks more")
    list_weights: dict[str, float] = Field(
        default_factory=lambda: dict(DEFAULT_LIST_WEIGHTS),
        description="how much each candidate list counts in the fusion (unnamed lists: 1)",
    )
    vote_floor: float = Field(default=0.10, ge=0, le=1, description="a dense hit at this cosine or below casts no vote")
    vote_full: float = Field(default=0.25, ge=0, le=1, description="a dense hit from this cosine on casts a full vote")
    space_statistics: bool = Field(
        default=True, description="score a small space's full-text hits with its own statistics"
    )
    distinctive_share: float = Field(
        default=0.02, ge=0, le=1, description="a query term in at most this share of documents is distinctive"
    )
    distinctive_exponent: float = Field(
        default=1.0, ge=0, description="a full-text hit's vote grows with its distinctive words' share to this power"
    )
    distinctive_floor: float = Field(
        default=0.5, ge=0, le=1, description="the vote of a full-text hit without distinctive words"
    )
    own_indexes: bool = Field(default=True, description="search a large space's own indexes where it has them")
    search: SearchLimits = Field(default_factory=SearchLimits, description="how the Neo4j searcher reaches a space")

    # -- abstraction, propagation, expansion ----------------------------------------------------------------------
    abstract_phrases: int = Field(default=8, ge=0, description="key phrases of the query looked up as concept keys")
    abstract_dense_k: int = Field(default=8, ge=0, description="concepts nearest the query joined to the key matches")
    abstract_min_similarity: float = Field(
        default=0.55, ge=0, le=1, description="least vector score of a nearest concept"
    )
    concept_fanout: int = Field(default=8, ge=0, description="associated concepts activated per query concept")
    propagation: float = Field(default=0.5, ge=0, description="share of activation passed over one association")
    expand_concepts: int = Field(default=20, ge=0, description="most activated concepts expanded back to knowledge")
    per_concept: int = Field(default=12, ge=1, description="mentions per expanded concept, closest to the query first")
    max_expand_df: int = Field(default=500, ge=1, description="concepts mentioned more often are too general to expand")
    expand_mentions: int = Field(default=400, ge=1, description="mentions read per expansion, bounding its cost")

    # -- value function ---------------------------------------------------------------------------------------------
    rerank_pool: int = Field(default=120, ge=1, description="candidates hydrated and scored, best fused first")
    value: ValueWeights = Field(default_factory=ValueWeights, description="the value function's weights")
    goal_substitution: float = Field(
        default=0.5,
        ge=0,
        description="cost of one goal word standing in for another (a word only one side has costs 1)",
    )
    goal_strength: float = Field(
        default=0.5, ge=0, description="how steeply a procedure's score falls with its goal's distance from the task"
    )

    # -- context, pages, when, participants -----------------------------------------------------------------------
    context_items: int = Field(default=10, ge=0, description="top items whose neighbouring utterances join (0: off)")
    page_items: int = Field(default=5, ge=0, description="top items whose named documents join as pages (0: off)")
    page_passages: int = Field(default=3, ge=1, description="passages per page, closest to the query first")
    page_k: int = Field(default=40, ge=1, description="page passages in all")
    when_k: int = Field(default=25, ge=0, description="episodes of the times the query names that join (0: off)")
    when_days: int = Field(default=7, ge=0, description="days either side of a named time that count as then")
    participant_k: int = Field(default=25, ge=0, description="episodes per participant search (0: off)")

    # -- hop --------------------------------------------------------------------------------------------------------
    hop_decay: float = Field(
        default=0.5, ge=0, le=1, description="activation (and mention budget) kept per further hop"
    )
    hop_top_items: int = Field(default=5, ge=1, description="top items whose concepts a further hop may expand")
    hop_confident_similarity: float = Field(
        default=0.5, ge=0, le=1, description="no further hop once a top item matches the query this closely"
    )

    # -- ordering of the final ranking ------------------------------------------------------------------------------
    diversity: float = Field(
        default=0.25, description="MMR trade-off: weight of an item's closest cosine above it (0: off)"
    )
    restatement: float = Field(
        default=0.75,
        ge=0,
        le=1,
        description="cosine at which a later item restates an earlier one and goes above it (0: off)",
    )
    restatement_closeness: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="a restatement moves up only if it scores at least this share of the original",
    )
    latest: float = Field(
        default=0.55, ge=0, le=1, description="cosine at which a later item is a newer version of the first (0: off)"
    )
    latest_closeness: float = Field(
        default=0.4,
        ge=0,
        le=1,
        description="a newer version goes first only if it scores at least this share of the first",
    )
    current_versions: bool = Field(
        default=True,
        description="a returned statement that a revision replaced has its current version just above it",
    )
    earlier_versions: int = Field(
        default=0,
        ge=0,
        le=3,
        description="earlier versions of a returned fact (what a revision replaced) shown just below it (0: off)",
    )
    span_closeness: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="an item of the time the query names goes first if it scores this share of the first (0: off)",
    )
    fact_answers: bool = Field(
        default=True, description="a question about a state now is answered from its subject's facts (facts first)"
    )
    fact_item_similarity: float = Field(
        default=0.4,
        ge=-1,
        le=1,
        description="the cosine from which a ranked memory speaks of what a question asks (its subject left out)",
    )
    fact_items_read: int = Field(
        default=10,
        ge=0,
        le=200,
        description="ranked memories compared with what a question asks before 'nothing known' (0: facts only)",
    )
    fact_min_similarity: float = Field(
        default=0.25,
        ge=-1,
        le=1,
        description="the least cosine of what the question asks to its subject's closest fact (below: none fills it)",
    )

    # -- relevance (graph/recall/logic/relevance.py) ------------------------------------------------------------------
    relevance: RelevanceModel = Field(
        default_factory=RelevanceModel, description="the calibration of an item's relevance in [0, 1]"
    )
    relevance_phrases: int = Field(
        default=8, ge=0, description="key phrases of the question checked against the space's concept keys"
    )

    # -- proactive recall (graph/recall/associate/) ------------------------------------------------------------------
    associate: AssociateConfig = Field(default_factory=AssociateConfig, description="associate's paths and bar")

    # -- aggregation (graph/aggregate/) ------------------------------------------------------------------------------
    aggregate: AggregateConfig = Field(
        default_factory=AggregateConfig, description="counting / summing questions: what matches, what is one event"
    )
    unmentioned_names: bool = Field(
        default=True,
        description="nothing is returned when the question uses a name nothing the scope remembers mentions",
    )
    unmentioned_typo_from: int = Field(
        default=8,
        ge=0,
        description="a name's word this long or longer that nothing mentions counts as mentioned by a remembered "
        "word one edit away (a typo: 'Brittish'); 0: exact words only",
    )

    @field_validator("list_weights", mode="after")
    @classmethod
    def _over_defaults(cls, weights: dict[str, float]) -> dict[str, float]:
        """Weights given (in code or the environment) override the defaults list by list; 0 turns a list off."""
        negative = sorted(name for name, weight in weights.items() if weight < 0)
        if negative:
            raise ValueError(f"list weights must be at least 0: {', '.join(negative)}")
        return DEFAULT_LIST_WEIGHTS | weights

    @field_validator("recipe", mode="after")
    @classmethod
    def _known_recipe(cls, name: str) -> str:
        if name not in RECIPES:
            raise ValueError(f"unknown recall recipe {name!r}: one of {', '.join(RECIPES)}")
        return name

    @model_validator(mode="after")
    def _checked(self) -> RecallConfig:
        # Checked when the engine is configured, not at its first recall.
        if not 0.0 <= self.diversity < 1.0:
            raise ValueError(f"diversity must be in [0, 1), got {self.diversity}")
        if self.vote_full <= self.vote_floor:
            raise ValueError(f"vote_full ({self.vote_full}) must be above vote_floor ({self.vote_floor})")
        return self

    def with_recipe(self, name: str | None = None) -> RecallConfig:
        """This configuration with recipe `name`'s knobs (default: its own `recipe`), except those it was given
        explicitly (in code or the environment), which stay as given."""
        chosen = self.recipe if name is None else name
        if chosen not in RECIPES:
            raise ValueError(f"unknown recall recipe {chosen!r}: one of {', '.join(RECIPES)}")
        given = self.model_fields_set
        knobs = {knob: value for knob, value in RECIPES[chosen].items() if knob not in given}
        return self.model_copy(update={"recipe": chosen, **knobs})

    def list_weight(self, name: str) -> float:
        return self.list_weights.get(name, 1.0)

    @property
    def needs_vectors(self) -> bool:
        """Whether a step reorders the final ranking by the items' embeddings."""
        return self.diversity > 0 or self.restatement > 0 or self.latest > 0
