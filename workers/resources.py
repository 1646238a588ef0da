"""Per-process resources of a worker (or any process that submits jobs): Redis client, job store."""

from __future__ import annotations

from functools import lru_cache

import redis

from engram.settings import get_settings
from workers.jobs import JobStore


@lru_cache(maxsize=1)
def get_redis() -> redis.Redis:
    return redis.Redis.from_url(get_settings().redis.url)


@lru_cache(maxsize=1)
def get_job_store() -> JobStore:
    return JobStore(get_redis())
