"""The aggregation path's knobs (`RecallConfig.aggregate`; `ENGRAM_RECALL_AGGREGATE__MIN_SIMILARITY=0.5`). Where each
default was chosen: docs/aggregation.md and docs/tuning.md."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class AggregateConfig(BaseModel):
    """Questions that count, add up, compare or list over time (graph/aggregate/): which memories match, when two
    tell one event, and how the matches lead the ranking."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(default=True, description="route counting / summing / comparing questions to the aggregate")
    min_similarity: float = Field(
        default=0.65,
        ge=0,
        le=1,
        description="vector score ((1 + cosine) / 2) from which a memory with a target word matches",
    )
    min_similarity_alone: float = Field(
        default=0.8,
        ge=0,
        le=1,
        description="vector score from which a memory matches without any of the target's words",
    )
    min_term_share: float = Field(
        default=0.6, ge=0, le=1, description="share of the question's target words from which a memory matches"
    )
    min_relevance: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="no figure when no recalled item reaches this relevance nor a match min_term_share of the words",
    )
    min_confidence: float = Field(
        default=0.5, ge=0, le=1, description="least confidence of a counted statement (a question asserts nothing)"
    )
    max_items: int = Field(default=500, ge=1, le=5000, description="most matching memories read (a safety cap)")
    same_event: float = Field(
        default=0.9, ge=0, le=1, description="cosine from which two matches of one day tell the same event"
    )
    same_source: bool = Field(
        default=True, description="matches of one day told in one conversation are one event (its many statements)"
    )
    lead: int = Field(default=10, ge=0, le=200, description="matches (one per source first) leading the items (0: off)")
    new_sources_only: bool = Field(
        default=True, description="lead only with events of sources the ranking's first `lead` items leave out"
    )
    lead_min_share: float = Field(
        default=0.4,
        ge=0,
        le=1,
        description="share of the target's words an event must hold (or min_similarity_alone) to lead the items",
    )
    keep_first: int = Field(default=8, ge=0, description="items of the ranking kept above the leading matches")
    lead_amounts: bool = Field(
        default=True,
        description="a sum's or comparison's events stating an amount (of the asked unit) lead whatever their words",
    )
