"""Every knob of recall, with its default, in one typed configuration of sections.

`RecallConfig` holds one section per step or family of steps (graph/recall/config_sections.py): `request` (a
request's defaults), `seed`, `abstraction`, `scoring`, `evidence`, `hop`, `order`, `facts`, `abstention`, `associate`
and `aggregate`. A knob is named in the environment as it always was, by its own name (`ENGRAM_RECALL_SEED_K=60`,
`ENGRAM_RECALL_VALUE__RECENCY=0.05`, `ENGRAM_RECALL_SEARCH__MAX_FETCH=4096`, the list weights as JSON:
`ENGRAM_RECALL_LIST_WEIGHTS='{"fulltext": 2.5}'`), or by its section (`ENGRAM_RECALL_SEED__SEED_K=60`); in code by
its section (`RecallConfig(order=OrderConfig(diversity=0.0))`, `config.order.diversity`) or its own name
(`RecallConfig(diversity=0.0)`). Where each default was chosen and what it measured is in docs/tuning.md (one row per
knob, kept in step by a unit test). A request sets its own limit, token budget, hops and memory types
(`RecallRequest`); the `request` section holds their defaults.
"""

from __future__ import annotations

import json
import os
from typing import Any

from pydantic import Field, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from graph.aggregate.config import AggregateConfig
from graph.recall.config_sections import DEFAULT_LIST_WEIGHTS as DEFAULT_LIST_WEIGHTS  # re-exported for callers
from graph.recall.config_sections import (
    AbstentionConfig,
    AbstractionConfig,
    AssociateConfig,
    EvidenceConfig,
    FactsConfig,
    HopConfig,
    OrderConfig,
    RequestDefaults,
    ScoringConfig,
    SeedConfig,
)
from graph.recall.config_sections import RelevanceModel as RelevanceModel
from graph.recall.config_sections import SearchLimits as SearchLimits
from graph.recall.config_sections import ValueWeights as ValueWeights

ENV_PREFIX = "ENGRAM_RECALL_"

# Each knob's own name (as the environment and docs/tuning.md name it) and where it lives: its section and its name
# there.
KNOBS: dict[str, tuple[str, str]] = {
    "limit": ("request", "limit"),
    "token_budget": ("request", "token_budget"),
    "hop_limit": ("request", "hop_limit"),
    "min_relevance": ("request", "min_relevance"),
    "seed_k": ("seed", "seed_k"),
    "rrf_k": ("seed", "rrf_k"),
    "list_weights": ("seed", "list_weights"),
    "vote_floor": ("seed", "vote_floor"),
    "vote_full": ("seed", "vote_full"),
    "space_statistics": ("seed", "space_statistics"),
    "distinctive_share": ("seed", "distinctive_share"),
    "distinctive_exponent": ("seed", "distinctive_exponent"),
    "distinctive_floor": ("seed", "distinctive_floor"),
    "own_indexes": ("seed", "own_indexes"),
    "search": ("seed", "search"),
    "abstract_phrases": ("abstraction", "abstract_phrases"),
    "abstract_dense_k": ("abstraction", "abstract_dense_k"),
    "abstract_min_similarity": ("abstraction", "abstract_min_similarity"),
    "concept_fanout": ("abstraction", "concept_fanout"),
    "propagation": ("abstraction", "propagation"),
    "expand_concepts": ("abstraction", "expand_concepts"),
    "per_concept": ("abstraction", "per_concept"),
    "max_expand_df": ("abstraction", "max_expand_df"),
    "expand_mentions": ("abstraction", "expand_mentions"),
    "rerank_pool": ("scoring", "rerank_pool"),
    "value": ("scoring", "value"),
    "goal_substitution": ("scoring", "goal_substitution"),
    "goal_strength": ("scoring", "goal_strength"),
    "context_items": ("evidence", "context_items"),
    "page_items": ("evidence", "page_items"),
    "page_passages": ("evidence", "page_passages"),
    "page_k": ("evidence", "page_k"),
    "when_k": ("evidence", "when_k"),
    "when_days": ("evidence", "when_days"),
    "participant_k": ("evidence", "participant_k"),
    "hop_decay": ("hop", "hop_decay"),
    "hop_top_items": ("hop", "hop_top_items"),
    "hop_confident_similarity": ("hop", "hop_confident_similarity"),
    "diversity": ("order", "diversity"),
    "restatement": ("order", "restatement"),
    "restatement_closeness": ("order", "restatement_closeness"),
    "latest": ("order", "latest"),
    "latest_closeness": ("order", "latest_closeness"),
    "current_versions": ("order", "current_versions"),
    "earlier_versions": ("order", "earlier_versions"),
    "span_closeness": ("order", "span_closeness"),
    "fact_answers": ("facts", "fact_answers"),
    "fact_item_similarity": ("facts", "fact_item_similarity"),
    "fact_items_read": ("facts", "fact_items_read"),
    "fact_min_similarity": ("facts", "fact_min_similarity"),
    "relevance": ("abstention", "relevance"),
    "relevance_phrases": ("abstention", "relevance_phrases"),
    "unmentioned_names": ("abstention", "unmentioned_names"),
    "unmentioned_typo_from": ("abstention", "unmentioned_typo_from"),
}


def sectioned(knobs: dict[str, Any]) -> dict[str, Any]:
    """`knobs` with each knob named by its own name moved into its section (a section given as a mapping keeps what
    it holds; the knob named on its own wins)."""
    moved: dict[str, Any] = {}
    for name, value in knobs.items():
        if name in KNOBS:
            section, field = KNOBS[name]
            moved.setdefault(section, {})[field] = value
        else:
            moved[name] = value if name not in moved else {**value, **moved[name]}
    return moved


class KnobNamesInEnvironment(PydanticBaseSettingsSource):
    """The knobs the environment names by their own names (`ENGRAM_RECALL_SEED_K`, `ENGRAM_RECALL_VALUE__RECENCY`),
    each put in its section; the names by section (`ENGRAM_RECALL_SEED__SEED_K`) are pydantic-settings' own."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # every value comes from __call__

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for variable, text in os.environ.items():
            if not variable.upper().startswith(ENV_PREFIX):
                continue
            path = variable[len(ENV_PREFIX) :].lower().split("__")
            if path[0] not in KNOBS:
                continue
            section, field = KNOBS[path[0]]
            place = found.setdefault(section, {})
            for part in [field, *path[1:]][:-1]:
                place = place.setdefault(part, {})
            place[[field, *path[1:]][-1]] = _value(text)
        return found


def _value(text: str) -> Any:
    """A JSON object or list as such (the list weights); anything else as text, for the field to parse."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return text


# Named recall recipes: the knobs a user turns, set together for one kind of recall (docs/tuning.md, "Recipes"), by
# section: a recipe overrides the knobs it names in each section it names.
# A recipe sets only knobs read by each recall run (never the searcher's or the abstractor's, which an engine builds
# once), and never a fitted coefficient. A knob set explicitly (in code or the environment) wins over the recipe's.
RECIPES: dict[str, dict[str, dict[str, Any]]] = {
    # The defaults below, as fitted and measured (docs/benchmarks.md).
    "default": {},
    # One hop and none of the late steps that fetch more or reorder by vectors: the lowest latency.
    "fast": {
        "request": {"hop_limit": 1},
        "seed": {"seed_k": 20},
        "scoring": {"rerank_pool": 60},
        "evidence": {"context_items": 0, "page_items": 0, "when_k": 0, "participant_k": 0},
        "order": {
            "diversity": 0.0,
            "restatement": 0.0,
            "latest": 0.0,
            "current_versions": False,
            "earlier_versions": 0,
        },
    },
    # Wider lists, a larger pool and one more hop, and the earlier version of a fact below it: the most recall.
    "thorough": {
        "request": {"hop_limit": 3},
        "seed": {"seed_k": 80},
        "scoring": {"rerank_pool": 240},
        "abstraction": {"expand_concepts": 40, "per_concept": 20},
        "evidence": {"context_items": 20, "page_items": 10},
        "order": {"earlier_versions": 1},
    },
    # Further through the concept graph: more associated concepts per concept, more activation passed on, more hops.
    "associate": {
        "request": {"hop_limit": 3},
        "abstraction": {"concept_fanout": 16, "propagation": 0.7, "expand_concepts": 40},
        "hop": {"hop_decay": 0.7, "hop_top_items": 10},
    },
}

# The coefficients fitted on a development half (bench/abstention.py, bench/longmemeval.py, bench/locomo_recall.py:
# docs/tuning.md), as (section, knob), apart from the knobs a user turns: a recipe never sets them, and changing one
# means fitting again.
FITTED_COEFFICIENTS: tuple[tuple[str, str], ...] = (
    ("seed", "rrf_k"),
    ("seed", "list_weights"),
    ("seed", "vote_floor"),
    ("seed", "vote_full"),
    ("seed", "distinctive_share"),
    ("seed", "distinctive_exponent"),
    ("seed", "distinctive_floor"),
    ("scoring", "value"),
    ("abstention", "relevance"),
    ("scoring", "goal_substitution"),
    ("scoring", "goal_strength"),
    ("order", "restatement_closeness"),
    ("order", "latest_closeness"),
    ("order", "span_closeness"),
    ("abstraction", "abstract_min_similarity"),
    ("hop", "hop_confident_similarity"),
)


class RecallConfig(BaseSettings):
    """The recall pipeline's configuration (graph/recall/engine.py `PIPELINE` lists the steps these knobs steer).

    `recipe` (ENGRAM_RECALL_RECIPE) names a preset of `RECIPES`; `with_recipe` gives the configuration of another
    (a request's `recipe`). The fitted coefficients are listed in `FITTED_COEFFICIENTS`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", env_file=".env", extra="ignore", frozen=True
    )

    recipe: str = Field(default="default", description="the named preset of user knobs (RECIPES) recall runs with")
    request: RequestDefaults = Field(default_factory=RequestDefaults, description="a request's defaults")
    seed: SeedConfig = Field(default_factory=SeedConfig, description="the seed searches and the fusion")
    abstraction: AbstractionConfig = Field(default_factory=AbstractionConfig, description="concepts and expansion")
    scoring: ScoringConfig = Field(default_factory=ScoringConfig, description="the pool and the value function")
    evidence: EvidenceConfig = Field(default_factory=EvidenceConfig, description="context, pages, when, participants")
    hop: HopConfig = Field(default_factory=HopConfig, description="further hops")
    order: OrderConfig = Field(default_factory=OrderConfig, description="the final ranking's order")
    facts: FactsConfig = Field(default_factory=FactsConfig, description="facts first")
    abstention: AbstentionConfig = Field(default_factory=AbstentionConfig, description="relevance, 'nothing relevant'")
    associate: AssociateConfig = Field(default_factory=AssociateConfig, description="associate's paths and bar")
    aggregate: AggregateConfig = Field(
        default_factory=AggregateConfig, description="counting / summing questions: what matches, what is one event"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        knob_names = KnobNamesInEnvironment(settings_cls)
        return init_settings, env_settings, knob_names, dotenv_settings, file_secret_settings

    @model_validator(mode="before")
    @classmethod
    def _knobs_by_name(cls, data: Any) -> Any:
        return sectioned(data) if isinstance(data, dict) else data

    @field_validator("recipe", mode="after")
    @classmethod
    def _known_recipe(cls, name: str) -> str:
        if name not in RECIPES:
            raise ValueError(f"unknown recall recipe {name!r}: one of {', '.join(RECIPES)}")
        return name

    def with_recipe(self, name: str | None = None) -> RecallConfig:
        """This configuration with recipe `name`'s knobs (default: its own `recipe`), section by section, except those
        it was given explicitly (in code or the environment), which stay as given."""
        chosen = self.recipe if name is None else name
        if chosen not in RECIPES:
            raise ValueError(f"unknown recall recipe {chosen!r}: one of {', '.join(RECIPES)}")
        update: dict[str, Any] = {"recipe": chosen}
        for section_name, knobs in RECIPES[chosen].items():
            section = getattr(self, section_name)
            unset = {knob: value for knob, value in knobs.items() if knob not in section.model_fields_set}
            update[section_name] = section.model_copy(update=unset)
        return self.model_copy(update=update)

    def knob(self, name: str) -> Any:
        """A knob by its own name (`seed_k`), wherever its section holds it."""
        section, field = KNOBS[name]
        return getattr(getattr(self, section), field)
