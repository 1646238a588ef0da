"""Submit ingest jobs to the real worker and wait for them."""

from __future__ import annotations

import time
from typing import Any

from engram.formats.loading import validate_records
from workers.jobs import JobState, JobStatus
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest


def wait_for_job(job_id: str, timeout_s: float = 300) -> JobStatus:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = get_job_store().status(job_id)
        if status.state in (JobState.SUCCEEDED, JobState.FAILED):
            return status
        time.sleep(0.2)
    raise TimeoutError(f"job {job_id} not finished after {timeout_s} s: {get_job_store().status(job_id)}")


def ingest(space: str, payload: list[dict[str, Any]], timeout_s: float = 300) -> JobStatus:
    status = wait_for_job(submit_ingest(space, validate_records(payload)), timeout_s)
    assert status.state is JobState.SUCCEEDED, status.error
    return status
