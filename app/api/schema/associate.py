"""The `associate` query: proactive recall, the memories worth surfacing for what the user just said, each with the
paths that brought it (graph/recall/associate/)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated

import strawberry
from pydantic import ValidationError

from app.api.embedder_guard import require_same_embedder
from app.api.schema.nodes import Info
from app.api.schema.outcomes import InvalidInput, OverBudget, invalid
from app.api.schema.recall_types import RecallHit, RecallTraceStep
from app.api.schema.scope_args import AgentArg, MetadataArg, SessionArg, UserArg, scope_filter
from graph.recall.associate.models import (
    MAX_UTTERANCE_CHARS,
    AssociateRequest,
    AssociateResult,
    AssociationPath,
    PathKind,
)

MAX_ASSOCIATE_LIMIT = 50

strawberry.enum(
    PathKind,
    description="concept: a concept the utterance mentions; time: the same weekday or time of day; emotion: the"
    " feeling it voices; habit: said together with a memory surfaced above; two_hops: through the concept"
    " association graph; wording: similar wording",
)


@strawberry.type(description="One path from the utterance to a surfaced memory.")
class AssociatePath:
    kind: PathKind
    detail: str = strawberry.field(description="the path in words: the concept, the time, the feeling, the chain")
    concepts: list[str] = strawberry.field(description="the concept keys on the path, in order")

    @staticmethod
    def of(path: AssociationPath) -> AssociatePath:
        return AssociatePath(kind=path.kind, detail=path.detail, concepts=list(path.concepts))


@strawberry.type(description="A memory worth surfacing, with why.")
class AssociatedMemory:
    item: RecallHit
    why: list[AssociatePath] = strawberry.field(description="the paths that brought it, strongest first")


@strawberry.type(description="What memory brings up for what the user just said.")
class Associations:
    utterance: str
    associations: list[AssociatedMemory] = strawberry.field(description="best first; empty when nothing clears the bar")
    reason: str | None = strawberry.field(description="why nothing is surfaced, when nothing is")
    trace: list[RecallTraceStep] = strawberry.field(description="each step: the paths, concepts and links it took")

    @staticmethod
    def of(result: AssociateResult) -> Associations:
        return Associations(
            utterance=result.utterance,
            associations=[
                AssociatedMemory(item=RecallHit.of(a.item), why=[AssociatePath.of(p) for p in a.why])
                for a in result.associations
            ],
            reason=result.reason,
            trace=[RecallTraceStep.of(s) for s in result.trace],
        )


AssociatePayload = Annotated[Associations | InvalidInput | OverBudget, strawberry.union("AssociatePayload")]


@strawberry.type
class AssociateQuery:
    @strawberry.field(
        description="Proactive recall: given what the user just said (not a question), the memories worth bringing"
        " up, each with the paths that brought it; nothing, with a reason, when nothing clears the bar."
    )
    async def associate(
        self,
        info: Info,
        utterance: str,
        now: Annotated[
            datetime | None,
            strawberry.argument(
                description='When it is said, on the user\'s clock: "tonight", "again" are read by it.'
            ),
        ] = None,
        limit: Annotated[int | None, strawberry.argument(description="Most memories surfaced (default: 10).")] = None,
        speaker: Annotated[
            str | None,
            strawberry.argument(
                description="Who says it, named as they speak in memory: what they said before comes first."
            ),
        ] = None,
        user: UserArg = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
    ) -> AssociatePayload:
        info.context.for_user(user)
        if len(utterance) > MAX_UTTERANCE_CHARS:
            return OverBudget(
                message=f"utterance length {len(utterance)} is over the limit of {MAX_UTTERANCE_CHARS}",
                limit=MAX_UTTERANCE_CHARS,
                requested=len(utterance),
            )
        if limit is not None and limit > MAX_ASSOCIATE_LIMIT:
            return OverBudget(
                message=f"limit {limit} is over the limit of {MAX_ASSOCIATE_LIMIT}",
                limit=MAX_ASSOCIATE_LIMIT,
                requested=limit,
            )
        if not utterance.strip():
            return invalid(["utterance: must contain at least one non-space character"])
        await require_same_embedder(info.context)
        try:
            request = AssociateRequest(
                space=info.context.space,
                utterance=utterance,
                now=now,
                limit=limit,
                speaker=speaker,
                scope=scope_filter(agent, session, metadata),
            )
        except ValidationError as exc:
            return invalid([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)])
        result = await asyncio.to_thread(info.context.services.associator.associate, request)
        info.context.extra_queries += int(result.trace[-1].detail.get("cypher_statements", 0)) if result.trace else 0
        return Associations.of(result)
