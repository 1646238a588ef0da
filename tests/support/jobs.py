"""Submit ingest jobs to the real worker and wait for them."""

from __future__ import annotations

from typing import Any

from engram.formats.loading import validate_records
from workers.jobs import JobState, JobStatus
from workers.jobs import wait_for_job as wait_for
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest


def wait_for_job(job_id: str, timeout_s: float = 300) -> JobStatus:
    return wait_for(get_job_store(), job_id, timeout_s)


def ingest(space: str, payload: list[dict[str, Any]], timeout_s: float = 300) -> JobStatus:
    status = wait_for_job(submit_ingest(space, validate_records(payload)), timeout_s)
    assert status.state is JobState.SUCCEEDED, status.error
    return status
