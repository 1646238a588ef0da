"""What the MCP tools return: plain Pydantic models, so each tool publishes its output schema."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field


class WrittenSource(BaseModel):
    """A source a job writes, with the app's ids and the internal ones (pass either to `forget`)."""

    source_id: str
    external_id: str = Field(description="the record's id ('record/session' for a conversation session)")
    kind: str
    episode_ids: list[str] = Field(description="the internal ids of its episodes, in order")
    episode_external_ids: list[str] = Field(description="the app's ids of its episodes (turn ids), in order")


class JobReport(BaseModel):
    """An ingest job: queued, running, or finished with counts of what it wrote."""

    job_id: str
    state: str = Field(description="QUEUED, RUNNING, SUCCEEDED or FAILED")
    stage: str = ""
    fraction: float = Field(default=0.0, description="share of the job done, 0..1")
    counts: dict[str, Any] = Field(default_factory=dict, description="what the job wrote, once it ran")
    error: str = ""
    finished: bool = False
    sources: list[WrittenSource] = Field(
        default_factory=list, description="what the job writes (in `remember`'s answer; empty in `job_status`)"
    )


class Evidence(BaseModel):
    """An episode that proves a recalled item: who said or did what, and when."""

    episode_id: str
    source_id: str
    external_id: str
    speaker: str
    text: str
    occurred_at: datetime | None


class UnitSum(BaseModel):
    unit: str
    sum: float
    count: int = Field(description="events stating an amount in this unit")


class PeriodFigure(BaseModel):
    start: date = Field(description="the period's first day (a week starts on Monday)")
    count: int
    sums: list[UnitSum]


class CountedEvent(BaseModel):
    id: str
    text: str
    at: datetime | None = Field(description="when it happened (its own words), else when it was told")
    quantity: float | None
    unit: str | None
    similarity: float
    duplicates: list[str] = Field(description="statements telling the same event again, not counted again")
    provenance: list[Evidence]


class AggregateAnswer(BaseModel):
    """A count, sum or per-period comparison over every matching memory; `reason` says why a figure is missing."""

    kind: str = Field(description="count, sum, compare or list")
    target: str
    period: str | None
    count: int | None = Field(description="distinct events (one told twice counts once); null: none match")
    sum: float | None = Field(description="null where no amount is stated or the units differ (see units)")
    unit: str | None
    units: list[UnitSum]
    periods: list[PeriodFigure]
    unquantified: int
    scanned: int
    reason: str | None
    value: float | None = Field(
        default=None, description="the figure answering the question: count, stated count, sum or difference"
    )
    value_unit: str | None = None
    value_from: str | None = Field(default=None, description="events, stated, sum or difference")
    items: list[CountedEvent]


class RecalledItem(BaseModel):
    id: str
    kind: str = Field(description="proposition, prescription or episode")
    text: str
    score: float = Field(description="the value function's score; items come in ranking order")
    components: dict[str, Any] = Field(description="the value function's parts behind the score")
    valid_from: datetime | None
    provenance: list[Evidence]
    relevance: float | None = Field(default=None, description="how likely the item bears on the query, in [0, 1]")
    superseded_by: str | None = Field(
        default=None, description="an earlier version of a fact: the id of the current one (the item just above)"
    )
    valid_to: datetime | None = Field(default=None, description="when an earlier version stopped holding")


class RecallAnswer(BaseModel):
    """Recalled knowledge, best first, with the episodes behind each item."""

    query: str
    memory_types: list[str] = Field(description="the memory types the router chose (or that were asked for)")
    tokens: int = Field(description="tokens the returned items take, within the budget")
    items: list[RecalledItem]
    context: str = Field(description="the items as compact numbered text, ready for a model's context")
    reason: str | None = Field(
        default=None,
        description="why no item is returned, when none is: nothing relevant enough, and which part of the query "
        "nothing in memory matches",
    )
    aggregate: AggregateAnswer | None = Field(
        default=None, description="a question that counts, adds up or compares over time: its figures"
    )


class ForgetReport(BaseModel):
    episode_ids: list[str]
    knowledge_ids: list[str]
    source_ids: list[str]
    intent_ids: list[str]
    concepts_removed: int
    not_found: list[str] = Field(description="ids asked for that are not in this memory")
    episodes_removed: int | None = Field(
        default=None, description="when a user's whole memory went: how many episodes (not listed one by one)"
    )
    knowledge_removed: int | None = Field(
        default=None, description="when a user's whole memory went: how many propositions and prescriptions"
    )
    stopped_job_ids: list[str] = Field(
        default_factory=list,
        description="when a user's whole memory went: its ingest jobs stopped unfinished (they write nothing)",
    )


class CorrectionReport(BaseModel):
    created: bool = Field(description="false when this exact correction had been applied before")
    proposition_id: str = Field(description="the new, current proposition")
    text: str
    supersedes_id: str = Field(description="the corrected proposition, kept as history")


class DimensionSummary(BaseModel):
    id: str
    label: str
    concept_count: int
    top_concepts: list[str]


class ConceptSummary(BaseModel):
    key: str
    name: str
    dimension: str | None
    associated: list[str] = Field(description="the most strongly associated concept keys")
    aliases: list[str]
    propositions: list[str] = Field(description="'<id>: <text>' for the concept's first propositions")
    total_propositions: int


class LinkedNode(BaseModel):
    link_type: str
    outgoing: bool
    node_id: str
    node_kind: str
    text: str = Field(description="the node's text, or its key for a concept")


class MemoryEntry(BaseModel):
    id: str
    kind: str = Field(description="PROPOSITION, PRESCRIPTION or EPISODE")
    text: str
    status: str = Field(description="active, or superseded")
    at: datetime | None = Field(description="when it was true or happened")
    valid_to: datetime | None
    episode_external_ids: list[str] = Field(description="the app's ids of the episodes it comes from")
    source_external_ids: list[str] = Field(description="the app's ids of their sources")


class MemoryList(BaseModel):
    """A page of a memory's memories, newest first."""

    total: int
    memories: list[MemoryEntry]
    next_cursor: str | None = Field(description="pass as `after` for the next page (null: the last)")


class ExportPage(BaseModel):
    """A page of a memory as JSONL in the ingest format (`remember` it back, or `engram import` the file); with
    vectors, a page of its vectors file (`engram import --bulk`): records and total_sources 0, nodes counted."""

    jsonl: str
    records: int
    total_sources: int
    next_cursor: str | None = Field(description="pass as `after` for the next page (null: the last)")
    nodes: int | None = Field(default=None, description="with vectors: the nodes on this page")
    total_nodes: int | None = Field(default=None, description="with vectors: the nodes of the whole memory")


class AssociatedMemory(BaseModel):
    item: RecalledItem
    why: list[str] = Field(description="the paths that brought it, strongest first ('concept: ...', 'time: ...')")


class AssociateAnswer(BaseModel):
    """What memory brings up for what the user just said, best first, each with why."""

    utterance: str
    memories: list[AssociatedMemory]
    context: str = Field(description="the memories as compact numbered text with their paths, for a model's context")
    reason: str | None = Field(default=None, description="why nothing is brought up, when nothing is")


class ProfileFactEntry(BaseModel):
    """One version of a slot's value, with the episodes that told it."""

    proposition_id: str
    text: str
    predicate: str
    value: str = Field(description="the value ('Graz'); empty for a correction that named none (read `text`)")
    value_type: str = Field(description="PERSON, ORG, GPE, DATE, QUANTITY, THING, ...")
    polarity: bool = Field(description="false for a negated fact")
    valid_from: datetime | None = Field(description="when it became true")
    valid_to: datetime | None = Field(description="when it stopped being true (an earlier version)")
    superseded_by: str | None = Field(description="the proposition that replaced it")
    provenance: list[Evidence]


class ProfileSlotEntry(BaseModel):
    """One attribute of a subject: the fact that holds now and what it replaced."""

    slot: str = Field(description="home, employer, ... or an open slot named by its frame")
    current: ProfileFactEntry | None = Field(description="null: every version was replaced (an ended state)")
    also_current: list[ProfileFactEntry] = Field(description="other values that hold now too (a plural slot)")
    history: list[ProfileFactEntry] = Field(description="earlier versions, newest first")


class ProfileSubjectEntry(BaseModel):
    subject: str = Field(description="whose attributes: the user, or someone or something they told of")
    slots: list[ProfileSlotEntry]


class ProfileAnswer(BaseModel):
    """What memory believes about a user now, slot by slot, and what it believed before."""

    user: str
    subjects: list[ProfileSubjectEntry] = Field(description="the user's own facts first")
    truncated: bool = Field(description="more facts than one profile shows: ask for one subject")
    context: str = Field(description="the profile as compact text, a line per slot, for a model's context")
