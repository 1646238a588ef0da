"""Keeps the worker alive through a restart of Redis (kombu 5.7 / celery 5.7).

When the broker connection drops, the consumer collects the connection (which drops its transport). Anything that
then touches the old channel's Redis through it raises AttributeError, which Celery treats as unrecoverable: a Redis
restart stopped every worker. Two paths do: closing the default channel restores the unacknowledged messages, and a
task that was running when the connection dropped acknowledges (or rejects) its message when it ends. Nothing can be
restored or acknowledged through a lost connection anyway: such a message stays in kombu's unacked index and comes
back after the visibility timeout, and its stage runs again (stages are idempotent). Imported by
workers/celery_app.py.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger("engram.worker")


def _collected(qos: Any) -> bool:
    """Whether the QoS's channel lost its connection to a collection after a connection loss."""
    return getattr(qos.channel.connection, "client", None) is None


def _skipped_when_collected(method: Callable[..., Any], what: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _collected(self):
            log.warning("broker connection lost: %s skipped; the message returns after the visibility timeout", what)
            return None
        return method(self, *args, **kwargs)

    return guarded


def _restore_unless_collected(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def guarded(self: Any, client: Any = None) -> Any:
        if client is None and _collected(self):
            return None  # nothing to restore through: the messages come back after the visibility timeout
        return method(self, client)

    return guarded


kombu_redis.QoS.restore_unacked = _restore_unless_collected(kombu_redis.QoS.restore_unacked)  # type: ignore[method-assign]
kombu_redis.QoS.ack = _skipped_when_collected(kombu_redis.QoS.ack, "acknowledgement")  # type: ignore[method-assign]
kombu_redis.QoS.reject = _skipped_when_collected(kombu_redis.QoS.reject, "rejection")  # type: ignore[method-assign]
