"""The worker's heartbeats, started when it is ready and stopped when it shuts down: the visibility heartbeat
(workers/visibility.py) and the fair scheduler's (workers/scheduler.py). Apart from workers/celery_app.py because the
scheduler lives with the ingest tasks, which import the Celery app: the app lists this module among those its worker
imports rather than importing it (a circle)."""

from __future__ import annotations

from typing import Any

from celery.signals import worker_ready, worker_shutdown

from engram.settings import get_settings
from workers.celery_app import app
from workers.jobs import JobStore
from workers.resources import get_job_store
from workers.scheduler import Scheduler, SchedulerHeartbeat
from workers.tasks.ingest import get_scheduler
from workers.visibility import VisibilityHeartbeat

_heartbeat: VisibilityHeartbeat | None = None
_scheduler_heartbeat: SchedulerHeartbeat | None = None


def _scheduler_and_store() -> tuple[Scheduler, JobStore]:
    return get_scheduler(), get_job_store()


@worker_ready.connect
def _start_visibility_heartbeat(sender: Any = None, **_: object) -> None:
    """In the worker's main process, which holds the messages its pool processes work on. It also announces the
    worker's slots to the fair scheduler and runs its reconciler (workers/scheduler.py)."""
    global _heartbeat, _scheduler_heartbeat
    _heartbeat = VisibilityHeartbeat(app, get_settings().worker.visibility_timeout_s)
    _heartbeat.start()
    controller = getattr(sender, "controller", None)
    hostname = str(getattr(controller, "hostname", None) or getattr(sender, "hostname", "worker"))
    concurrency = int(getattr(controller, "concurrency", None) or get_settings().worker.concurrency)
    _scheduler_heartbeat = SchedulerHeartbeat(_scheduler_and_store, hostname, concurrency)
    _scheduler_heartbeat.start()


@worker_shutdown.connect
def _stop_visibility_heartbeat(**_: object) -> None:
    if _heartbeat is not None:
        _heartbeat.stop()
    if _scheduler_heartbeat is not None:
        _scheduler_heartbeat.stop()
