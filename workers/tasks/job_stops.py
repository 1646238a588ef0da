"""Stopping ingest jobs from outside them: an operator's purge (`engram jobs purge`). A deletion of the scope they write
to stops them itself (workers/scope_deletion.py). A stage already running notices at its next part or write
(workers/tasks/ingest.py)."""

from __future__ import annotations

from engram.scope import parent_space
from workers.jobs import JOB_INDEX, JobState, JobStore, UnknownJob
from workers.resources import get_job_store, get_redis
from workers.tasks.ingest import fail_job

PURGED_ERROR = (
    "PURGED: the operator cancelled this job (engram jobs purge) before it finished; resubmit it if it is wanted"
)


def purge_jobs(space: str | None = None, store: JobStore | None = None) -> list[str]:
    """Cancels every unfinished ingest job (of `space` and its users' partitions, or of a user's partition
    `space/<hex>`, or of every space): each is failed with PURGED_ERROR, its payload and charge released, and it leaves
    the scheduler. A message of one already taken by a worker (and redelivered should that worker die) finds its job
    finished and runs nothing; a write stage running stops after its current part. Returns the cancelled job ids."""
    store = store or get_job_store()
    cancelled: list[str] = []
    ids: list[bytes] = get_redis().zrange(JOB_INDEX, 0, -1)  # type: ignore[assignment]
    for raw in ids:
        try:
            status = store.status(raw.decode())
        except UnknownJob:
            continue
        if status.state in (JobState.QUEUED, JobState.RUNNING) and space in (
            None,
            status.space,
            parent_space(status.space),
        ):
            fail_job(store, status.id, PURGED_ERROR)
            cancelled.append(status.id)
    return cancelled
