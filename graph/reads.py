"""Bounded reads: the statements the API runs for a tenant (recall, navigation, lookups) carry a transaction timeout,
and Neo4j stopping one (at its timeout or at the per-transaction memory cap), or no pooled connection coming free in
time, becomes an error that says so.

The server's own `db.transaction.timeout` (infra/neo4j/conf/neo4j.conf) bounds every other transaction; a
statement's own timeout overrides it, which is how the long waits of index building ask for more.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import neo4j
import neo4j.exceptions

MEMORY_POOL_FULL = "Neo.TransientError.General.MemoryPoolOutOfMemoryError"
READ_ATTEMPTS = 3  # a read the server marks retryable (leader switch, deadlock) is tried this often
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


class TransactionTooLarge(Exception):
    """Neo4j stopped a read that needed more memory than one transaction may hold (db.memory.transaction.max). The
    server calls it transient, but the same read would fail the same way: it is never retried."""

    def __init__(self, statement: str) -> None:
        super().__init__(
            f"the database stopped this read ({statement}): it needed more memory than one transaction may hold "
            "(db.memory.transaction.max)"
        )
        self.statement = statement


def over_transaction_memory(error: neo4j.exceptions.Neo4jError) -> bool:
    """The per-transaction cap, not the shared pool (db.memory.transaction.total.max), which frees up and is worth
    a retry: Neo4j reports both with one code and names the setting in the message."""
    return error.code == MEMORY_POOL_FULL and "db.memory.transaction.max " in (error.message or "")


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
        if over_transaction_memory(error):
            raise TransactionTooLarge(statement) from error
        raise


def read(driver: neo4j.Driver, database: str, statement: str, query: neo4j.Query, **params: Any) -> list[neo4j.Record]:
    """The records of a read, in an auto-commit transaction of a short session.

    Not `execute_query`: that wraps each statement in a managed transaction (BEGIN, RUN, PULL, COMMIT), which costs
    extra round trips on every statement, and it retries for 30 s whatever the server calls transient, the
    per-transaction memory cap included. Here a retryable error is tried READ_ATTEMPTS times, and the errors
    `bounded` names (a timeout, the memory cap, a full pool) not again. The shared bookmark manager keeps reads
    causally after the writes this driver made.
    """
    timeout_s = query.timeout if isinstance(query.timeout, int | float) else None
    for attempt in range(1, READ_ATTEMPTS + 1):
        try:
            with (
                bounded(statement, timeout_s),
                driver.session(
                    database=database,
                    default_access_mode=neo4j.READ_ACCESS,
                    bookmark_manager=driver.execute_query_bookmark_manager,
                ) as session,
            ):
                return list(session.run(query, **params))
        except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as error:
            if attempt == READ_ATTEMPTS or not error.is_retryable():
                raise
            time.sleep(0.05 * attempt)
    raise AssertionError("unreachable")
