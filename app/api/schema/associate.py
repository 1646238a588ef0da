"""The `associate` query: proactive recall, the memories worth surfacing for what the user just said, each with the
paths that brought it (graph/recall/associate/)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any

import strawberry
from pydantic import ValidationError

from app.api.embedder_guard import require_same_embedder
from app.api.schema.nodes import Info
from app.api.schema.outcomes import InvalidInput, OverBudget
from app.api.schema.read_arguments import associate_argument, refusal, validation_problems
from app.api.schema.recall_types import RecallHit, RecallTraceStep
from app.api.schema.scope_args import AgentArg, MetadataArg, SessionArg, UserArg, scope_filter
from graph.recall.arguments import ASSOCIATE_ARGUMENTS
from graph.recall.associate.models import (
    AssociateRequest,
    AssociateResult,
    AssociationPath,
    PathKind,
)

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
        utterance: Annotated[str, associate_argument("utterance")],
        now: Annotated[datetime | None, associate_argument("now")] = None,
        limit: Annotated[int | None, associate_argument("limit")] = None,
        speaker: Annotated[str | None, associate_argument("speaker")] = None,
        user: UserArg = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
    ) -> AssociatePayload:
        info.context.for_user(user)
        values: dict[str, Any] = {"utterance": utterance, "now": now, "limit": limit, "speaker": speaker}
        refused = refusal(ASSOCIATE_ARGUMENTS, values)
        if refused is not None:
            return refused
        await require_same_embedder(info.context)
        try:
            request = AssociateRequest(space=info.context.space, scope=scope_filter(agent, session, metadata), **values)
        except ValidationError as exc:
            return validation_problems(exc)
        result = await asyncio.to_thread(info.context.services.associator.associate, request)
        info.context.extra_queries += int(result.trace[-1].detail.get("cypher_statements", 0)) if result.trace else 0
        return Associations.of(result)
