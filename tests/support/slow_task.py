"""A task that outlives the broker's visibility timeout, for the worker a test starts with
`-A tests.support.slow_task:app` (the service's app, plus this task)."""

from __future__ import annotations

import time

from workers.celery_app import app
from workers.resources import get_redis

SLOW_QUEUE = "test-slow"  # consumed only by the test's worker


@app.task(name="engram.test.slow", acks_late=True)
def slow(counter: str, seconds: float) -> int:
    """Counts its runs in Redis under `counter`, then works for `seconds`."""
    runs = int(get_redis().incr(counter))
    time.sleep(seconds)
    return runs
