"""The sections of recall's configuration (graph/recall/config.py `RecallConfig`): one per step or family of steps,
each a frozen model of its knobs with their defaults, bounds and why each exists (docs/tuning.md has where each
default was chosen)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

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


class RequestDefaults(BaseModel):
    """The defaults of a request's own arguments (graph/recall/arguments.py bounds them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    limit: int = LIMIT.field(default=25, description="items returned when a request names no limit")
    token_budget: int = TOKEN_BUDGET.field(default=1024, description="tokens returned when a request names no budget")
    hop_limit: int = HOP_LIMIT.field(default=2, description="hops when a request names none")
    min_relevance: float = MIN_RELEVANCE.field(
        default=0.0, description="no item when none reaches this relevance (0: off; fitted: 0.375)"
    )


class SeedConfig(BaseModel):
    """Seed and fusion: the candidate lists searched first, and how their ranks are fused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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

    @field_validator("list_weights", mode="after")
    @classmethod
    def _over_defaults(cls, weights: dict[str, float]) -> dict[str, float]:
        """Weights given (in code or the environment) override the defaults list by list; 0 turns a list off."""
        negative = sorted(name for name, weight in weights.items() if weight < 0)
        if negative:
            raise ValueError(f"list weights must be at least 0: {', '.join(negative)}")
        return DEFAULT_LIST_WEIGHTS | weights

    @model_validator(mode="after")
    def _votes_rise(self) -> SeedConfig:
        if self.vote_full <= self.vote_floor:
            raise ValueError(f"vote_full ({self.vote_full}) must be above vote_floor ({self.vote_floor})")
        return self

    def list_weight(self, name: str) -> float:
        return self.list_weights.get(name, 1.0)


class AbstractionConfig(BaseModel):
    """Abstract: the query's concepts, the activation spread over their associations, and its expansion back to
    knowledge."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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


class ScoringConfig(BaseModel):
    """Rank: the pool scored and the value function that scores it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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


class EvidenceConfig(BaseModel):
    """Context, pages, when and participants: the evidence read from the first ranking that joins the candidates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    context_items: int = Field(default=10, ge=0, description="top items whose neighbouring utterances join (0: off)")
    page_items: int = Field(default=5, ge=0, description="top items whose named documents join as pages (0: off)")
    page_passages: int = Field(default=3, ge=1, description="passages per page, closest to the query first")
    page_k: int = Field(default=40, ge=1, description="page passages in all")
    when_k: int = Field(default=25, ge=0, description="episodes of the times the query names that join (0: off)")
    when_days: int = Field(default=7, ge=0, description="days either side of a named time that count as then")
    participant_k: int = Field(default=25, ge=0, description="episodes per participant search (0: off)")


class HopConfig(BaseModel):
    """Hop: when a further hop expands the top items' concepts, and how far."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hop_decay: float = Field(
        default=0.5, ge=0, le=1, description="activation (and mention budget) kept per further hop"
    )
    hop_top_items: int = Field(default=5, ge=1, description="top items whose concepts a further hop may expand")
    hop_confident_similarity: float = Field(
        default=0.5, ge=0, le=1, description="no further hop once a top item matches the query this closely"
    )


class OrderConfig(BaseModel):
    """The final ranking's order: MMR, restatements, versions and the time a question names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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

    @model_validator(mode="after")
    def _diversity_below_one(self) -> OrderConfig:
        # Checked when the engine is configured, not at its first recall.
        if not 0.0 <= self.diversity < 1.0:
            raise ValueError(f"diversity must be in [0, 1), got {self.diversity}")
        return self

    @property
    def needs_vectors(self) -> bool:
        """Whether a step reorders the final ranking by the items' embeddings."""
        return self.diversity > 0 or self.restatement > 0 or self.latest > 0


class FactsConfig(BaseModel):
    """Facts first: a question about a state answered from its subject's facts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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


class AbstentionConfig(BaseModel):
    """Relevance: each item's calibrated relevance, and what makes 'nothing relevant'."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relevance: RelevanceModel = Field(
        default_factory=RelevanceModel, description="the calibration of an item's relevance in [0, 1]"
    )
    relevance_phrases: int = Field(
        default=8, ge=0, description="key phrases of the question checked against the space's concept keys"
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
