"""The Celery application: Redis broker and result backend, `cpu` and `gpu` queues.

Tasks acknowledge late and are re-queued if a worker dies mid-task; every task is written to be
idempotent (deterministic ids, MERGE) so a redelivery cannot duplicate or lose data.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, Task
from celery.signals import (
    after_setup_logger,
    after_setup_task_logger,
    before_task_publish,
    task_postrun,
    task_prerun,
    worker_process_init,
)
from celery.worker.request import Request
from kombu import Queue  # type: ignore[attr-defined]

import workers.broker_restart  # noqa: F401  (the worker survives a Redis restart)
from engram.logs import adopt_handlers, correlation_id, set_correlation_id
from engram.settings import get_settings
from workers.jobs import STAGES

CPU_QUEUE = "cpu"
GPU_QUEUE = "gpu"
# The message header carrying the correlation id of the request that queued a task (engram/logs.py).
CORRELATION_HEADER = "engram_correlation_id"
# The stage whose time limits (WorkerSettings.time_limits) bound a task: every ingest stage and a consolidation run.
TIMED_TASKS = {f"engram.ingest.{stage}": stage for stage in STAGES} | {"engram.consolidate.space": "consolidation"}


class CorrelatedRequest(Request):  # type: ignore[misc]
    """A task message as the worker receives it. Celery logs "Task name[id] received" right after making this,
    before any task signal: the message's correlation id is kept here for that line (_ReceivedLine). A stage runs
    under the time limits of the worker that runs it, whatever the process that queued it had configured."""

    last: tuple[str, str] = ("", "")  # (task id, correlation id) of the message received last, in this process

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        CorrelatedRequest.last = (self.id, str(self._request_dict.get(CORRELATION_HEADER) or ""))
        if (stage := TIMED_TASKS.get(self._type)) is not None:
            soft, hard = get_settings().worker.time_limits(stage)
            self.time_limits = (hard, soft)  # Celery's order


class _ReceivedLine(logging.Filter):
    """Gives Celery's "received" line (its record's `data` names the task id) the correlation id of that message.
    Matched by task id, so no other line of the consumer inherits it."""

    def filter(self, record: logging.LogRecord) -> bool:
        data = getattr(record, "data", None)
        task_id, correlation = CorrelatedRequest.last
        if isinstance(data, dict) and task_id and data.get("id") == task_id and correlation:
            record.correlation_id = correlation
        return True


class EngramTask(Task):  # type: ignore[misc]
    Request = CorrelatedRequest


logging.getLogger("celery.worker.strategy").addFilter(_ReceivedLine())


def create_celery_app() -> Celery:
    settings = get_settings()
    redis_url = settings.redis.url
    celery = Celery(
        "engram",
        task_cls=EngramTask,
        broker=redis_url,
        backend=redis_url,
        include=[
            "workers.tasks.system",
            "workers.tasks.embedding",
            "workers.tasks.ingest",
            "workers.tasks.consolidate",
            "workers.heartbeats",  # imports the tasks modules, which import this one: listed, not imported here
        ],
    )
    celery.conf.update(
        task_queues=(Queue(CPU_QUEUE), Queue(GPU_QUEUE)),
        task_default_queue=CPU_QUEUE,
        task_routes={"engram.embed_texts": {"queue": GPU_QUEUE}},
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=24 * 3600,
        broker_connection_retry_on_startup=True,
        # Unacked messages of a dead worker come back after the visibility timeout, checked every few seconds; a
        # living worker's are re-stamped while it works on them, however long (workers/visibility.py).
        broker_transport_options={
            "visibility_timeout": settings.worker.visibility_timeout_s,
            "unacked_restore_interval": settings.worker.restore_interval_s,
            "unacked_restore_throttle": 1,
            "unacked_mutex_expire": settings.worker.restore_lock_s,
        },
        worker_hijack_root_logger=False,
        # A pool process loads the embedding model before it reports up (_prepare_pool_process): Celery's 4 s default
        # killed every replacement of a process stopped at its hard time limit, and the worker took no job again.
        worker_proc_alive_timeout=settings.worker.process_start_timeout_s,
        # Periodic consolidation of every space, for `celery -A workers.celery_app:app beat` (not started by
        # `engram up`: run beat where scheduled consolidation is wanted, e.g. next to one worker).
        beat_schedule={
            "consolidate-every-space": {
                "task": "engram.consolidate.all",
                "schedule": float(os.environ.get("ENGRAM_CONSOLIDATE_INTERVAL_S", "3600")),
                "options": {"queue": CPU_QUEUE},
            }
        },
    )
    return celery


app = create_celery_app()


@worker_process_init.connect
def _prepare_pool_process(**_: object) -> None:
    """Lower the pool process's CPU priority, share the cores between pool processes, and load the embedding model
    before the first job needs it."""
    from engram.embedding import get_embedder, share_cores
    from engram.native_threads import limit_math_threads

    worker = get_settings().worker
    # Absolute, not an increment: a worker started under `nice` already keeps at least its own niceness.
    os.setpriority(os.PRIO_PROCESS, 0, max(os.getpriority(os.PRIO_PROCESS, 0), worker.nice))
    threads = worker.math_threads or max(1, (os.cpu_count() or 1) // worker.concurrency)
    share_cores(threads)  # ONNX Runtime's share; a lone job's large passes borrow idle cores (engram/cpu_slots.py)
    get_embedder()
    limit_math_threads(threads)


@after_setup_logger.connect
@after_setup_task_logger.connect
def _structured_logs(logger: logging.Logger, **_: object) -> None:
    """The worker's log lines in ENGRAM_LOG_FORMAT (JSON by default), each with the correlation id of its task."""
    adopt_handlers(logger, get_settings().log_format)


@before_task_publish.connect
def _carry_correlation_id(headers: dict[str, object] | None = None, **_: object) -> None:
    """A task queued while serving a request (or a task) carries its id: the API's ingest, and each next stage of
    a chain, published by the worker as the previous stage ends."""
    if headers is not None and (current := correlation_id()):
        headers.setdefault(CORRELATION_HEADER, current)


@task_prerun.connect
def _adopt_correlation_id(task: Any = None, **_: object) -> None:
    set_correlation_id(str(getattr(task.request, CORRELATION_HEADER, None) or "") if task is not None else "")


@task_postrun.connect
def _drop_correlation_id(**_: object) -> None:
    set_correlation_id("")
