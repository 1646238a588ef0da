"""Wait for a set of ingest jobs with a progress bar (benchmarks submit many jobs at once)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from tqdm import tqdm

from workers.jobs import JobState
from workers.resources import get_job_store


def wait_for_jobs(job_ids: Sequence[str], desc: str = "pipeline jobs", timeout_s: float = 7200) -> None:
    """Block until every job succeeded; raise on the first that failed or when `timeout_s` passes."""
    store = get_job_store()
    deadline = time.monotonic() + timeout_s
    with tqdm(total=len(job_ids), desc=desc, unit="job") as bar:
        pending = set(job_ids)
        while pending:
            for job_id in list(pending):
                status = store.status(job_id)
                if status.state is JobState.FAILED:
                    raise RuntimeError(f"job {job_id} failed: {status.error}")
                if status.state is JobState.SUCCEEDED:
                    pending.discard(job_id)
                    bar.update(1)
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(pending)} jobs not finished after {timeout_s} s")
            time.sleep(0.25)  # polling is not free: it shares the cores with the pipeline
