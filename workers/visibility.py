"""Keeps the broker from redelivering a message while a living worker still works on it.

Kombu's Redis transport redelivers a late-acknowledged message once it has been unacknowledged for
`visibility_timeout`, counted from its delivery (its score in the `unacked_index` sorted set). A fixed timeout is
wrong either way: shorter than the longest stage (a consolidation waits hours for index builds), the stage runs
twice at once; hours long, a crashed worker's messages wait hours. So the worker's main process stamps every message
it holds with the current time every quarter of the timeout: a message comes back `visibility_timeout` after its
worker's last stamp, i.e. only once the worker is gone, however long the stage runs.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from celery import Celery
from celery.worker import state

log = logging.getLogger("engram.worker")
UNACKED_INDEX = "unacked_index"  # kombu's default `unacked_index_key`


def held_delivery_tags() -> list[str]:
    """Delivery tags of the messages this worker process has received and not yet acknowledged."""
    while True:
        try:
            requests = list(state.reserved_requests)
            break
        except RuntimeError:  # the set changed size while copied (the consumer thread): copy again
            continue
    return [str(tag) for r in requests if (tag := getattr(r.message, "delivery_tag", None))]


def stamp(client: redis.Redis, tags: list[str], index: str = UNACKED_INDEX) -> None:
    """Re-stamps the messages' delivery times. XX: a message acknowledged (or restored) meanwhile is not added back."""
    if tags:
        client.zadd(index, dict.fromkeys(tags, time.time()), xx=True)


class VisibilityHeartbeat:
    def __init__(self, app: Celery, visibility_timeout_s: float) -> None:
        self._client = redis.Redis.from_url(app.conf.broker_url)
        self._index = app.conf.broker_transport_options.get("unacked_index_key", UNACKED_INDEX)
        self._beat_s = visibility_timeout_s / 4
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="visibility heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self._beat_s + 5)

    def _run(self) -> None:
        while not self._stop.wait(self._beat_s):
            try:
                stamp(self._client, held_delivery_tags(), self._index)
            except redis.exceptions.RedisError as exc:
                log.warning("visibility heartbeat: Redis unreachable (%s); stamped at the next beat", exc)
