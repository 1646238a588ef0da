"""What an operator watches in Redis: the Celery queues' depth and Redis's memory against its cap.

Read by the API's /metrics (app/api/metrics.py) and by `engram doctor` (app/cli/doctor.py), so both report the same
figures the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from kombu.transport.redis import PRIORITY_STEPS, Channel

from workers.celery_app import CPU_QUEUE, GPU_QUEUE

QUEUES = (CPU_QUEUE, GPU_QUEUE)


@dataclass(frozen=True)
class RedisMemory:
    used_bytes: int
    max_bytes: int  # 0: no cap (Redis's default; Engram's redis.conf sets 512 MB)

    @property
    def used_fraction(self) -> float | None:
        return self.used_bytes / self.max_bytes if self.max_bytes else None


def _priority_lists(queue: str) -> list[str]:
    """kombu keeps a queue's messages in one Redis list per priority step: the queue's name for step 0."""
    return [queue if step == 0 else f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS]


def queue_depths(client: redis.Redis, queues: tuple[str, ...] = QUEUES) -> dict[str, int]:
    """Messages waiting in each queue (not yet taken by a worker)."""
    pipe = client.pipeline(transaction=False)
    for queue in queues:
        for name in _priority_lists(queue):
            pipe.llen(name)
    lengths = iter(pipe.execute())
    return {queue: sum(next(lengths) for _ in PRIORITY_STEPS) for queue in queues}


def unacked_messages(client: redis.Redis) -> int:
    """Messages a worker has taken and not acknowledged yet (running, or held by a worker that died)."""
    return int(client.hlen(Channel.unacked_key))


def redis_memory(client: redis.Redis) -> RedisMemory:
    info: dict[str, int] = client.info("memory")
    return RedisMemory(used_bytes=int(info["used_memory"]), max_bytes=int(info.get("maxmemory", 0)))
