"""The one Neo4j driver of a process."""

from __future__ import annotations

from functools import lru_cache

import neo4j
import redis

from engram.settings import Neo4jSettings, get_settings
from graph.routing import ROUTING_SCHEMES, routed


def create_driver(settings: Neo4jSettings, redis_url: str | None = None) -> neo4j.Driver:
    """A new driver for `settings` (callers own it and must close it). Its `execute_query` routes a read to READ and a
    write to WRITE, and with a routing URI (`neo4j://`: a cluster, Aura) every transaction follows the bookmarks that
    all processes share in Redis (`redis_url`, default the settings'): graph/routing.py."""
    driver = neo4j.GraphDatabase.driver(
        settings.uri,
        auth=(settings.user, settings.password.get_secret_value()),
        max_connection_pool_size=settings.max_connection_pool_size,
        connection_acquisition_timeout=settings.connection_acquisition_timeout_s,
        # "label does not exist" on a fresh database is expected, not worth a log line per query.
        notifications_disabled_classifications=[neo4j.NotificationDisabledClassification.UNRECOGNIZED],
    )
    bookmarks = None
    if settings.uri.startswith(ROUTING_SCHEMES):
        bookmarks = redis.Redis.from_url(redis_url or get_settings().redis.url, socket_timeout=5)
    return routed(driver, settings.uri, bookmarks)


@lru_cache(maxsize=1)
def get_driver() -> neo4j.Driver:
    """The process-wide driver (Neo4j drivers are thread-safe and meant to be shared)."""
    return create_driver(get_settings().neo4j)
