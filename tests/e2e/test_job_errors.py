"""A job that fails tells its tenant which stage failed and the job id, never the worker's exception text (it can
carry queries, paths or other data); the exception goes to the worker log under the job id."""

from __future__ import annotations

from engram.settings import EngramSettings
from tests.support.jobs import wait_for_job
from workers.celery_app import CPU_QUEUE
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.tasks.ingest import standardize_stage


def test_a_failed_job_shows_the_stage_and_job_id_and_logs_the_exception(settings: EngramSettings, space: str) -> None:
    # The API validates a payload before a job exists; one stored without that check fails in the worker instead.
    store = get_job_store()
    job_id = store.create(space, [{"type": "conversation", "id": "c", "sessions": "internal-detail-7f3a"}])
    standardize_stage.si(job_id).apply_async(queue=CPU_QUEUE)
    status = wait_for_job(job_id, timeout_s=60)
    assert status.state is JobState.FAILED
    assert (
        status.error == f"stage standardize failed on an internal error (job {job_id}); the worker log has the details"
    )
    worker_log = (settings.state_dir / "worker" / "worker.log").read_text(errors="replace")
    logged = [line for line in worker_log.splitlines() if job_id in line and "stage standardize failed" in line]
    assert logged
    # The traceback is in its line (JSON logs, ENGRAM_LOG_FORMAT=json) or follows it (plain).
    assert "InvalidInput" in logged[-1] + worker_log.split(logged[-1], 1)[1]
