"""Keeps the worker alive through a restart of Redis (kombu 5.7 / celery 5.7).

When the broker connection drops, the consumer collects the connection (which drops its transport) and then closes
it; closing the default channel tries to restore the worker's unacknowledged messages through the dropped transport
and raises AttributeError, which Celery treats as unrecoverable: a Redis restart stopped every worker. Nothing can be
restored through a lost connection anyway: those messages are acknowledged when their tasks end (the tasks keep
running) or come back after the visibility timeout. Imported by workers/celery_app.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kombu.transport import redis as kombu_redis

_restore_unacked: Callable[..., Any] = kombu_redis.QoS.restore_unacked


def _restore_unless_collected(self: Any, client: Any = None) -> Any:
    if client is None and getattr(self.channel.connection, "client", None) is None:
        return None  # the connection was collected after a connection loss
    return _restore_unacked(self, client)


kombu_redis.QoS.restore_unacked = _restore_unless_collected  # type: ignore[method-assign]
