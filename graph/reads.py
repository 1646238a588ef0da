"""Bounded reads: the statements the API runs for a tenant (recall, navigation, lookups) carry a transaction timeout,
and Neo4j stopping one, or no pooled connection coming free in time, becomes an error that says so.

The server's own `db.transaction.timeout` (infra/neo4j/conf/neo4j.conf) bounds every other transaction; a
statement's own timeout overrides it, which is how the long waits of index building ask for more.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import neo4j
import neo4j.exceptions

# Client-set and server-default timeouts; Neo4j reports a transaction it stopped for either.
TIMED_OUT = frozenset(
    {
        "Neo.ClientError.Transaction.TransactionTimedOut",
        "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
    }
)


class ReadTimedOut(Exception):
    """Neo4j stopped a read that ran past its transaction timeout."""

    def __init__(self, statement: str, timeout_s: float | None) -> None:
        limit = f"{timeout_s:g} s (NEO4J_READ_TIMEOUT_S)" if timeout_s else "its time limit (db.transaction.timeout)"
        super().__init__(f"the database stopped this read ({statement}) after {limit}")
        self.statement = statement
        self.timeout_s = timeout_s


class DatabaseBusy(Exception):
    """No connection of the driver's pool came free within its acquisition timeout."""

    def __init__(self, statement: str) -> None:
        super().__init__(f"no database connection came free in time for {statement} (the service is overloaded)")


def timed(text: str, timeout_s: float | None) -> neo4j.Query:
    """A statement with its transaction timeout (None: the server's default)."""
    return neo4j.Query(text, timeout=timeout_s)


@contextmanager
def bounded(statement: str, timeout_s: float | None) -> Iterator[None]:
    """Turns a timed-out read and a pool that stayed full into ReadTimedOut and DatabaseBusy."""
    try:
        yield
    except neo4j.exceptions.ConnectionAcquisitionTimeoutError as error:
        raise DatabaseBusy(statement) from error
    except neo4j.exceptions.Neo4jError as error:
        if error.code in TIMED_OUT:
            raise ReadTimedOut(statement, timeout_s) from error
        raise
