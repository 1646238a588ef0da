"""Subscriptions (graphql-transport-ws): an ingest job's progress until it finishes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

import strawberry

from app.api.errors import NotFoundError
from app.api.schema.job_types import Job
from app.api.schema.nodes import Info
from engram.scope import parent_space
from workers.jobs import JobState, UnknownJob

POLL_S = 0.25
MAX_FOLLOW_S = 3600


@strawberry.type
class Subscription:
    @strawberry.subscription(description="Progress of an ingest job of this space: an event per change, then done.")
    async def job_progress(self, info: Info, id: strawberry.ID) -> AsyncGenerator[Job, None]:
        space = info.context.key_space
        jobs = info.context.services.jobs
        last = None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MAX_FOLLOW_S
        while loop.time() < deadline:
            try:
                status = await asyncio.to_thread(jobs.status, str(id))
            except UnknownJob:
                status = None
            if status is None or parent_space(status.space) != space:  # a user's job is the space's
                raise NotFoundError(
                    await asyncio.to_thread(info.context.services.deletion.gone_job_message, space, str(id))
                )
            snapshot = status.model_dump()
            if snapshot != last:
                last = snapshot
                yield Job.of(status)
            if status.state in (JobState.SUCCEEDED, JobState.FAILED):
                return
            await asyncio.sleep(POLL_S)
