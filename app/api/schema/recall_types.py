"""Recall results: knowledge items with scores, provenance, token counts and the explanation trace."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import strawberry
from strawberry.scalars import JSON

from app.api.schema.json import to_json
from app.api.schema.nodes import Info, Node, node_from_row
from app.api.schema.provenance_types import ProvenanceEpisode
from graph.recall.models import MemoryType, RecallItem, RecallResult, SourceGroup, TraceStep

if TYPE_CHECKING:
    from app.api.schema.aggregate_types import Aggregate

strawberry.enum(MemoryType, description="episodic: what happened; semantic: facts; procedural: how")


@strawberry.type(description="One recalled piece of knowledge (or an episode, in episodic mode).")
class RecallHit:
    id: strawberry.ID
    kind: str = strawberry.field(description="proposition, prescription or episode")
    text: str
    score: float
    components: JSON = strawberry.field(description="the value function's parts: relevance, similarity, ...")
    tokens: int
    valid_from: datetime | None
    found_by: list[str] = strawberry.field(description="dense / fulltext / concepts / hop:N ...")
    provenance: list[ProvenanceEpisode]
    relevance: float | None = strawberry.field(
        description="how likely the item bears on the question, calibrated in [0, 1] (docs/relevance.md); the score"
        " only orders items"
    )
    superseded_by: strawberry.ID | None = strawberry.field(
        description="set on an earlier version of a fact: the id of the current one that revised it, the item just"
        " above (docs/supersession.md)"
    )
    valid_to: datetime | None = strawberry.field(description="when an earlier version stopped holding (world time)")

    @strawberry.field(description="The item's node, for nested fields (concepts, sources...): batched per response.")
    async def node(self, info: Info) -> Node | None:
        found = await info.context.loaders.node.load(str(self.id))
        return node_from_row(*found) if found else None

    @staticmethod
    def of(item: RecallItem) -> RecallHit:
        return RecallHit(
            id=strawberry.ID(item.id),
            kind=item.kind.value,
            text=item.text,
            score=item.score,
            components=to_json(item.components),
            tokens=item.tokens,
            valid_from=item.valid_from,
            found_by=item.found_by,
            provenance=[ProvenanceEpisode.of(p) for p in item.provenance],
            relevance=item.relevance,
            superseded_by=None if item.superseded_by is None else strawberry.ID(item.superseded_by),
            valid_to=item.valid_to,
        )


@strawberry.type(description="The returned items a source (a conversation session, a document) proves, best first.")
class RecallSource:
    source_id: strawberry.ID
    item_ids: list[strawberry.ID]

    @staticmethod
    def of(group: SourceGroup) -> RecallSource:
        return RecallSource(
            source_id=strawberry.ID(group.source_id), item_ids=[strawberry.ID(i) for i in group.item_ids]
        )


@strawberry.type(description="One step of recall and what it decided.")
class RecallTraceStep:
    step: str
    ms: float
    detail: JSON

    @staticmethod
    def of(step: TraceStep) -> RecallTraceStep:
        return RecallTraceStep(step=step.step, ms=step.ms, detail=to_json(step.detail))


@strawberry.type(description="What memory recalls for a query.")
class Recall:
    query: str
    memory_types: list[MemoryType]
    items: list[RecallHit] = strawberry.field(description="best first, in every mode")
    sources: list[RecallSource] = strawberry.field(
        description="the items grouped by the source of their first proving episode (sources by their best item; an"
        " item with no provenance is in no group)"
    )
    tokens: int = strawberry.field(description="tokens of the returned texts (within the budget)")
    hops: int
    trace: list[RecallTraceStep]
    cypher: str = strawberry.field(description="paste into Neo4j Browser to see the returned subgraph")
    reason: str | None = strawberry.field(
        description="why no item is returned, when none is: the question uses a name nothing in memory mentions, or"
        " nothing reaches minRelevance, and which of the question's concepts no concept of memory matches"
    )
    aggregate: Annotated[Aggregate, strawberry.lazy("app.api.schema.aggregate_types")] | None = strawberry.field(
        description="a question that counts, adds up or compares over time: the figures over every matching memory"
    )

    @staticmethod
    def of(result: RecallResult) -> Recall:
        from app.api.schema.aggregate_types import Aggregate  # it shows provenance as this module does

        return Recall(
            query=result.query,
            memory_types=list(result.memory_types),
            items=[RecallHit.of(i) for i in result.items],
            sources=[RecallSource.of(g) for g in result.sources],
            tokens=result.tokens,
            hops=result.hops,
            trace=[RecallTraceStep.of(s) for s in result.trace],
            cypher=result.cypher,
            reason=result.reason,
            aggregate=Aggregate.of(result.aggregate) if result.aggregate else None,
        )
