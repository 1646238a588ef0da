"""Ingest jobs as the API shows them."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from app.api.schema.json import to_json
from workers.jobs import JobState, JobStatus

strawberry.enum(JobState)


@strawberry.type(description="An ingest job and its progress per stage.")
class Job:
    id: strawberry.ID
    state: JobState
    stage: str = strawberry.field(description="standardize, extract, embed, write or consolidate")
    done: int
    total: int
    fraction: float = strawberry.field(description="0..1 over all stages")
    stages_done: list[str]
    stage_seconds: JSON
    counts: JSON = strawberry.field(description="sources, episodes, propositions, concepts, ... written")
    error: str
    created_at: str
    finished_at: str

    @staticmethod
    def of(status: JobStatus) -> Job:
        return Job(
            id=strawberry.ID(status.id),
            state=status.state,
            stage=status.stage,
            done=status.done,
            total=status.total,
            fraction=round(status.fraction, 4),
            stages_done=status.stages_done,
            stage_seconds=to_json(status.stage_seconds),
            counts=to_json(status.counts),
            error=status.error,
            created_at=status.created_at,
            finished_at=status.finished_at,
        )
