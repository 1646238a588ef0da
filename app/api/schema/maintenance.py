"""Corrections, consolidation and fact history: how memory stays consistent, as the API shows it."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from app.api.schema.nodes import Fact, Info, Proposition
from app.api.schema.outcomes import InvalidInput, NotFound, invalid
from app.api.schema.scope_args import UserArg
from graph.api_keys import KeyRole
from graph.consolidation.correction import (
    CorrectionError,
    InvalidCorrection,
    PropositionNotCurrent,
    UnknownProposition,
    correct,
)
from graph.consolidation.lineage import Lineage, LineageStep
from graph.consolidation.model import native
from graph.lookup import GraphReader

CONSOLIDATION_TTL_S = 7 * 24 * 3600


@strawberry.input(description="A user's correction of a fact: the new statement supersedes the old one.")
class CorrectInput:
    proposition_id: strawberry.ID
    text: str
    valid_from: datetime | None = strawberry.field(default=None, description="when the corrected fact became true")
    reason: str = ""


@strawberry.type(description="The correction applied; the corrected proposition stays as history.")
class Corrected:
    created: bool = strawberry.field(description="false when this exact correction had been applied before")
    supersedes_id: strawberry.ID
    proposition_id: strawberry.ID

    @strawberry.field
    async def proposition(self, info: Info) -> Proposition | None:
        found = await info.context.loaders.node.load(str(self.proposition_id))
        return Proposition.from_row(found[1]) if found else None

    @strawberry.field
    async def supersedes(self, info: Info) -> Proposition | None:
        found = await info.context.loaders.node.load(str(self.supersedes_id))
        return Proposition.from_row(found[1]) if found else None


@strawberry.type(description="A fact this proposition replaced, and why.")
class HistoryStep:
    proposition_id: strawberry.ID
    text: str
    status: str
    reason: str = strawberry.field(description="merged / updated / conflict / corrected ...")
    replaced_by: strawberry.ID
    valid_from: datetime | None
    valid_to: datetime | None
    expired_at: datetime | None
    fact: Fact | None = strawberry.field(description="the atomic fact it stated; null for a proposition that is none")


@strawberry.type(description="A fact's history: the proposition that stands for it now and what it replaced.")
class History:
    proposition_id: strawberry.ID
    status: str
    current_id: strawberry.ID | None
    replaced: list[HistoryStep]


@strawberry.type(description="A consolidation run of the caller's space, queued on the workers.")
class Consolidation:
    id: strawberry.ID
    state: str = strawberry.field(description="Celery state: PENDING, STARTED, SUCCESS, FAILURE, RETRY")
    report: JSON | None = strawberry.field(description="before/after figures and counts, once it has run")


CorrectPayload = Annotated[Corrected | NotFound | InvalidInput, strawberry.union("CorrectPayload")]
HistoryResult = Annotated[History | NotFound, strawberry.union("HistoryResult")]
ConsolidationResult = Annotated[Consolidation | NotFound, strawberry.union("ConsolidationResult")]


def _lineage(reader: GraphReader, proposition_id: str) -> tuple[Lineage, dict[str, Fact | None]] | None:
    """graph.consolidation.lineage's reading, in the request's reader (a read transaction of its memory), with the
    fact each replaced proposition states, read in the same statement; None when the space has no such proposition."""
    records = reader.run("consolidate/lineage", id=proposition_id)
    if not records:
        return None
    row = records[0]
    steps = [step for step in row["replaced"] if step["id"] is not None]
    times = ("valid_from", "valid_to", "expired_at")
    found = Lineage(
        id=row["id"],
        status=row["status"],
        current=row["current"],
        replaced=[LineageStep(**{**step, **{k: native(step[k]) for k in times}}) for step in steps],
    )
    return found, {step["id"]: Fact.of(step.get("fact")) for step in steps}


def _space_key(task_id: str) -> str:
    return f"engram:consolidation:{task_id}"


@strawberry.type
class MaintenanceMutation:
    @strawberry.mutation(description="Correct a fact: a new proposition supersedes it; history is kept.")
    async def correct(self, info: Info, input: CorrectInput, user: UserArg = None) -> CorrectPayload:
        info.context.for_user(user)
        services = info.context.services
        try:
            result = await asyncio.to_thread(
                correct,
                info.context.space_for(KeyRole.WRITER),
                str(input.proposition_id),
                input.text,
                embed=services.embedder.encode,
                driver=services.driver,
                database=services.database,
                valid_from=input.valid_from,
                reason=input.reason[:500],
            )
        except UnknownProposition as exc:
            return NotFound(message=str(exc), id=str(input.proposition_id))
        except (InvalidCorrection, PropositionNotCurrent) as exc:
            return invalid([str(exc)])
        except CorrectionError as exc:
            return invalid([str(exc)])
        info.context.extra_queries += 5
        return Corrected(
            created=result.created,
            supersedes_id=strawberry.ID(result.supersedes),
            proposition_id=strawberry.ID(result.proposition_id),
        )

    @strawberry.mutation(description="Queue a consolidation of the caller's space (merge, resolve, re-weigh).")
    async def consolidate(self, info: Info, user: UserArg = None) -> Consolidation:
        info.context.for_user(user)
        from workers.tasks.consolidate import submit_consolidation

        space = info.context.space_for(KeyRole.WRITER)
        task_id = await asyncio.to_thread(submit_consolidation, space)
        info.context.services.redis.set(_space_key(task_id), space, ex=CONSOLIDATION_TTL_S)
        return Consolidation(id=strawberry.ID(task_id), state="PENDING", report=None)


@strawberry.type
class MaintenanceQuery:
    @strawberry.field(description="A consolidation run of this space and its report.")
    async def consolidation(self, info: Info, id: strawberry.ID, user: UserArg = None) -> ConsolidationResult:
        info.context.for_user(user)
        from celery.result import AsyncResult

        from workers.celery_app import app

        space = info.context.space
        owner = info.context.services.redis.get(_space_key(str(id)))
        if owner is None or (owner.decode() if isinstance(owner, bytes) else str(owner)) != space:
            return NotFound(message=f"no consolidation {id!r} in this space", id=str(id))
        result = AsyncResult(str(id), app=app)
        report = result.result if result.state == "SUCCESS" else None
        return Consolidation(id=id, state=result.state, report=json.loads(json.dumps(report, default=str)))

    @strawberry.field(description="A fact's history: what stands for it now and what it replaced.")
    async def history(self, info: Info, proposition_id: strawberry.ID, user: UserArg = None) -> HistoryResult:
        info.context.for_user(user)
        read = await asyncio.to_thread(_lineage, info.context.reader, str(proposition_id))
        if read is None:
            return NotFound(message=f"no proposition {proposition_id!r} in this space", id=str(proposition_id))
        found, facts = read
        return History(
            proposition_id=strawberry.ID(found.id),
            status=found.status,
            current_id=strawberry.ID(found.current) if found.current else None,
            replaced=[
                HistoryStep(
                    proposition_id=strawberry.ID(s.id),
                    text=s.text,
                    status=s.status,
                    reason=s.reason,
                    replaced_by=strawberry.ID(s.replaced_by),
                    valid_from=s.valid_from,
                    valid_to=s.valid_to,
                    expired_at=s.expired_at,
                    fact=facts.get(s.id),
                )
                for s in found.replaced
            ],
        )
