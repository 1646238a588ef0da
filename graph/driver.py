"""The one Neo4j driver of a process."""

from __future__ import annotations

from functools import lru_cache

import neo4j

from engram.settings import Neo4jSettings, get_settings


def create_driver(settings: Neo4jSettings) -> neo4j.Driver:
    """A new driver for `settings` (callers own it and must close it)."""
    return neo4j.GraphDatabase.driver(
        settings.uri,
        auth=(settings.user, settings.password.get_secret_value()),
        max_connection_pool_size=settings.max_connection_pool_size,
        connection_acquisition_timeout=settings.connection_acquisition_timeout_s,
        # "label does not exist" on a fresh database is expected, not worth a log line per query.
        notifications_disabled_classifications=[neo4j.NotificationDisabledClassification.UNRECOGNIZED],
    )


@lru_cache(maxsize=1)
def get_driver() -> neo4j.Driver:
    """The process-wide driver (Neo4j drivers are thread-safe and meant to be shared)."""
    return create_driver(get_settings().neo4j)
