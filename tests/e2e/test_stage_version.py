"""A worker whose code is older than the API's and the other workers' (a stage message of a version it does not
know, workers/stage_version.py) refuses the stage before it reads or writes anything, and hands the message back to
its queue: it is redelivered (here, to the same old worker, again and again) and the job stays untouched; a worker
that knows the version then runs the job to the end, once."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis

from engram.formats.loading import validate_records
from engram.settings import PROJECT_ROOT, EngramSettings
from tests.support.jobs import wait_for_job
from tests.support.workers import CELERY, stack_worker_stopped
from workers.celery_app import app as celery_app
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.stage_version import STAGE_PAYLOAD_VERSION, STAGE_VERSION_HEADER
from workers.tasks.ingest import submit_ingest

pytestmark = pytest.mark.e2e
QUEUE = "stage-version-test"
PAYLOAD = [
    {"type": "conversation", "id": "versions", "sessions": [
        {"id": "s1", "started_at": "2024-03-01T10:00:00Z", "turns": [
            {"speaker": "Ann", "id": "t1", "text": "I moved to Lisbon last spring and I work at a bakery there."},
        ]},
    ]},
]  # fmt: skip


def _old_worker(log: Path) -> subprocess.Popen[bytes]:
    """A worker of this code on a queue of its own (only the message below goes there)."""
    worker = subprocess.Popen(
        [CELERY, "-A", "workers.celery_app:app", "worker", "-Q", QUEUE, "-c", "1", "--hostname", "old@%h",
         "--loglevel", "WARNING", "--logfile", str(log)],
        cwd=PROJECT_ROOT, env=dict(os.environ), start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with celery_app.connection_for_write() as connection:
            if any(
                "old@" in node
                for reply in celery_app.control.ping(timeout=1.0, connection=connection)
                for node in reply
            ):
                return worker
    os.killpg(worker.pid, signal.SIGKILL)
    raise TimeoutError("the old worker did not come up")


def test_a_stage_of_a_newer_version_is_refused_redelivered_and_never_half_written(
    settings: EngramSettings, space: str, tmp_path: Path
) -> None:
    store = get_job_store()
    log = tmp_path / "old-worker.log"
    with stack_worker_stopped():
        job_id = submit_ingest(space, validate_records(PAYLOAD))  # waits: no worker takes the cpu queue
        worker = _old_worker(log)
        try:
            celery_app.tasks["engram.ingest.standardize"].apply_async(
                (job_id,), queue=QUEUE, headers={STAGE_VERSION_HEADER: STAGE_PAYLOAD_VERSION + 1}
            )
            deadline = time.monotonic() + 60
            while log.read_text().count("refused: its message is of stage version") < 3:
                assert time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.5)
            status = store.status(job_id)
            assert status.state is JobState.QUEUED and status.stages_done == [] and status.stage == ""
            with pytest.raises(KeyError):
                store.get_artifact(job_id, "standardize")
        finally:
            os.killpg(worker.pid, signal.SIGTERM)  # warm: the message in hand goes back to its queue first
            worker.wait(timeout=60)
            with redis.Redis.from_url(settings.redis.url) as client:
                client.delete(QUEUE)
        said = log.read_text()
        assert f"stage version {STAGE_PAYLOAD_VERSION + 1}, this worker knows up to {STAGE_PAYLOAD_VERSION}" in said
    finished = wait_for_job(job_id)  # the stack's worker knows the version of the stages the scheduler publishes
    assert finished.state is JobState.SUCCEEDED, finished.error
    assert finished.stages_done.count("standardize") == 1
