"""The Celery application: Redis broker and result backend, `cpu` and `gpu` queues.

Tasks acknowledge late and are re-queued if a worker dies mid-task; every task is written to be
idempotent (deterministic ids, MERGE) so a redelivery cannot duplicate or lose data.
"""

from __future__ import annotations

from celery import Celery
from kombu import Queue  # type: ignore[attr-defined]

from engram.settings import get_settings

CPU_QUEUE = "cpu"
GPU_QUEUE = "gpu"


def create_celery_app() -> Celery:
    redis_url = get_settings().redis.url
    celery = Celery(
        "engram",
        broker=redis_url,
        backend=redis_url,
        include=["workers.tasks.system", "workers.tasks.embedding"],
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
        # A late-acked task must not be redelivered to a second worker while the first still runs it.
        broker_transport_options={"visibility_timeout": 3600},
        worker_hijack_root_logger=False,
    )
    return celery


app = create_celery_app()
