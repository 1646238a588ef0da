"""Requests, results and the explanation trace of recall."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engram.scope import ScopeFilter
from graph.aggregate.models import AggregateResult
from graph.provenance import Provenance as Provenance  # re-exported: its callers import it from here
from graph.recall.arguments import (
    ADDRESSEE,
    AS_OF,
    ASKER,
    HOP_LIMIT,
    KNOWN_AT,
    LIMIT,
    MEMORY_TYPES,
    MIN_RELEVANCE,
    NOW,
    QUERY,
    RECIPE,
    TOKEN_BUDGET,
)
from graph.recall.arguments import (
    MemoryType as MemoryType,  # re-exported: its callers import it from here
)
from graph.recall.config import RECIPES


class ItemKind(StrEnum):
    PROPOSITION = "proposition"
    PRESCRIPTION = "prescription"
    EPISODE = "episode"


class RecallRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    space: str
    query: str = QUERY.field()
    memory_types: list[MemoryType] | None = MEMORY_TYPES.field()  # None: the router decides
    # None: the engine's configured defaults (graph/recall/config.py).
    token_budget: int | None = TOKEN_BUDGET.field()
    hop_limit: int | None = HOP_LIMIT.field()
    limit: int | None = LIMIT.field()
    # World time: recall what held then (facts valid then, episodes that had happened by then), by the times memory
    # holds for them (`at`, a record's timestamps, the dates statements name), not when the server recorded them.
    as_of: datetime | None = AS_OF.field()
    # Memory time: recall what memory had recorded by then (and not yet replaced), the server's own clock.
    known_at: datetime | None = KNOWN_AT.field()
    # Who asks and who is asked, as speakers are stored: the query's "I" / "me" / "my" name the asker and its "you" /
    # "your" the addressee ("What is the name of my cat?" asked by the user of a chat).
    asker: str | None = ASKER.field()
    addressee: str | None = ADDRESSEE.field()
    # When the query is asked: its relative times ("two weeks ago", "last weekend") are read against it, and what
    # happened around then joins the candidates (graph/recall/steps/when.py). None: they are not read.
    now: datetime | None = NOW.field()
    # The bar the best item's relevance (graph/recall/logic/relevance.py) must reach; below it, no item and a
    # reason. None: the engine's default.
    min_relevance: float | None = MIN_RELEVANCE.field()
    # Only what episodes of this agent / session / metadata prove (engram/scope.py); the user is `space` already.
    scope: ScopeFilter = Field(default_factory=ScopeFilter)
    # A named recall recipe (graph/recall/config.py RECIPES: default, fast, thorough, associate). None: the engine's.
    recipe: str | None = RECIPE.field()

    @field_validator("recipe", mode="after")
    @classmethod
    def _known_recipe(cls, name: str | None) -> str | None:
        if name is not None and name not in RECIPES:
            raise ValueError(f"unknown recipe {name!r}: one of {', '.join(RECIPES)}")
        return name


class RecallItem(BaseModel):
    id: str
    kind: ItemKind
    text: str
    score: float
    components: dict[str, float]  # the parts of the value function, for the trace
    provenance: list[Provenance]
    tokens: int
    valid_from: datetime | None = None
    found_by: list[str]  # dense / fulltext / concept:<key> / hop:<n>
    relevance: float | None = None  # calibrated, in [0, 1]; None where the pipeline does not calibrate
    # An earlier version, returned just below the current one that revised it: that one's id, and when it stopped
    # holding (world time).
    superseded_by: str | None = None
    valid_to: datetime | None = None


class TraceStep(BaseModel):
    step: str
    detail: dict[str, Any]
    ms: float = 0.0  # wall time of the step


class SourceGroup(BaseModel):
    """The returned items that a source (a conversation session, a document) proves, best first."""

    source_id: str
    item_ids: list[str]


class RecallResult(BaseModel):
    query: str
    memory_types: list[MemoryType]
    items: list[RecallItem]  # best first, in every mode
    # The items grouped by the source of their first proving episode; sources ordered by their best item. In
    # episodic mode, the episodes by the conversation or document they belong to.
    sources: list[SourceGroup] = []
    tokens: int
    hops: int
    trace: list[TraceStep]
    cypher: str  # reproduces the returned subgraph in Neo4j Browser
    # Why no item is returned, when none is (nothing relevant enough; which of the question's concepts memory lacks).
    reason: str | None = None
    # A question that counts, adds up, compares or lists over time: the computation over every matching memory.
    aggregate: AggregateResult | None = None
