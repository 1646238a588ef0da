"""Ingest jobs as the API shows them."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from app.api.schema.json import to_json
from engram.formats.records import Record
from workers.jobs import JobState, JobStatus
from workers.pipeline.standardize import standardize

strawberry.enum(JobState)


@strawberry.type(description="An episode a job writes: the app's id for it and the internal one.")
class WrittenEpisode:
    id: strawberry.ID
    external_id: str = strawberry.field(description="the turn id given (or its position), 'passage-N', 'step-N'")


@strawberry.type(description="A source a job writes (a conversation session, a document, a trajectory).")
class WrittenSource:
    id: strawberry.ID
    external_id: str = strawberry.field(description="the record's id ('record/session' for a conversation session)")
    kind: str
    episodes: list[WrittenEpisode]


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
    sources: list[WrittenSource] = strawberry.field(
        default_factory=list,
        description="the sources and episodes the job writes, with the app's ids and the internal ones (in the "
        "ingest and remember answers; empty when a job is looked up later)",
    )

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

    @staticmethod
    def queued(status: JobStatus, records: list[Record]) -> Job:
        """A job just queued, with the ids it writes (deterministic: known before it runs)."""
        job = Job.of(status)
        batch = standardize(status.space, records)
        episodes: dict[str, list[WrittenEpisode]] = {}
        for e in batch.episodes:
            episodes.setdefault(e.source_id, []).append(
                WrittenEpisode(id=strawberry.ID(e.id), external_id=e.external_id)
            )
        job.sources = [
            WrittenSource(
                id=strawberry.ID(s.id), external_id=s.external_id, kind=s.kind.value, episodes=episodes.get(s.id, [])
            )
            for s in batch.sources
        ]
        return job
