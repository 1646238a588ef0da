"""The version of an ingest stage's message and of the job data it works on (the job store's payload and artifacts,
workers/jobs.py): the scheduler stamps it on each stage message it publishes (`STAGE_VERSION_HEADER`), and a worker
refuses a stage of a version newer than its code knows. The refused message goes back to its queue (Celery's
`Reject(requeue=True)`), before the stage has read or written anything, for a worker that knows the version; so a
worker host left on older code while the API and the other workers were upgraded writes nothing half understood.

Raise STAGE_PAYLOAD_VERSION whenever what a stage reads from or writes to a job changes shape."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery.exceptions import Reject

STAGE_PAYLOAD_VERSION = 1
STAGE_VERSION_HEADER = "engram_stage_version"
# A refusing worker waits this long before it hands the message back: its own next fetch would otherwise take the same
# message again at once, while a worker that knows the version waits its turn.
REQUEUE_PAUSE_S = 2.0
log = logging.getLogger("engram.worker")


def stage_headers() -> dict[str, Any]:
    return {STAGE_VERSION_HEADER: STAGE_PAYLOAD_VERSION}


def sent_version(task: Any) -> int | None:
    """The version a stage's message carries (None: published before messages carried one, i.e. version 1)."""
    value = getattr(task.request, STAGE_VERSION_HEADER, None)
    if value is None:
        value = (getattr(task.request, "headers", None) or {}).get(STAGE_VERSION_HEADER)
    return None if value is None else int(value)


def refuse_unknown_version(task: Any, job_id: str) -> None:
    """Reject(requeue=True) a stage whose message is of a newer version than this worker's code knows."""
    sent = sent_version(task)
    if sent is None or sent <= STAGE_PAYLOAD_VERSION:
        return
    log.warning(
        "ingest job %s: stage %s refused: its message is of stage version %d, this worker knows up to %d (older "
        "code); handed back to the queue for a worker that knows it, nothing read or written",
        job_id, task.name, sent, STAGE_PAYLOAD_VERSION,
    )  # fmt: skip
    time.sleep(REQUEUE_PAUSE_S)
    raise Reject(f"stage version {sent} unknown to this worker (knows {STAGE_PAYLOAD_VERSION})", requeue=True)
