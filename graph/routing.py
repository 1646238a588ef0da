"""Reads in read transactions, writes in write transactions, and reads causally after every process's writes: what a
Neo4j cluster (or Aura) needs to send reads to its secondaries without a recall missing what a job just wrote.

- `writes(query)` says whether a statement writes, from its text (its clauses and the write procedures it calls);
  tests/e2e/test_read_write_routing.py checks it against the server's own classification (`EXPLAIN`'s query type)
  for every statement under cypher/.
- The driver (graph/driver.py `create_driver`) routes an `execute_query` that names no routing by that: a read to
  READ (a secondary), a write to WRITE (the leader); and refuses a statement that writes but is sent as a READ,
  before it leaves (the server refuses one too, in a read transaction or a READ session, with a less clear error).
- Bookmarks: with a routing URI (`neo4j://`, `neo4j+s://`), every transaction of every process begins after the
  bookmarks in Redis (`engram:neo4j:bookmarks`), and each commit puts its own there in place of those it began
  with. A worker commits a job's write before it marks the job finished, so a recall on any API host after that
  waits, on a secondary, until the write has reached it. With `bolt://` (one server) no bookmark is needed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection
from functools import lru_cache
from typing import Any

import neo4j
import redis
from neo4j.api import BookmarkManager

BOOKMARKS = "engram:neo4j:bookmarks"
BOOKMARKS_TTL_S = 24 * 3600
ROUTING_SCHEMES = ("neo4j://", "neo4j+s://", "neo4j+ssc://")

# What a statement says, without its comments, string literals and backquoted names, read left to right in one pass:
# an apostrophe in a comment ("a key's offspring") starts no string, and "//" in a string starts no comment.
_LITERALS = re.compile(r"(?P<comment>//[^\n]*|/\*.*?\*/)|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`", re.DOTALL)
# A write clause: not a property, a parameter or a map key of that name (`n.set`, `$delete`, `{remove: 1}`).
_WRITE_CLAUSE = re.compile(r"(?<![.$\w])(CREATE|MERGE|SET|DELETE|REMOVE|DROP|FOREACH|LOAD\s+CSV)\b(?!\s*:)", re.I)
# Procedures that write (APOC's, the vector setters, GDS's write modes, Neo4j's index and constraint procedures).
_WRITE_PROCEDURE = re.compile(
    r"\b(apoc\.(create|merge|refactor|periodic|atomic|nodes\.delete|cypher\.(doIt|runWrite)|do\.)"
    r"|db\.create\.|db\.index\.[\w.]*create|gds\.[\w.]*\.write\b|gds\.[\w.]*\.mutate\b)",
    re.I,
)


class WriteInReadTransaction(RuntimeError):
    """A statement that writes, sent to be run as a read (a cluster would send it to a secondary, which refuses)."""


_ALIAS = re.compile(r"\bAS\s+\w+", re.I)  # `RETURN n.x AS set`: a name, not a clause


def _bare(query: str) -> str:
    return _ALIAS.sub("AS _", _LITERALS.sub(lambda m: " " if m.group("comment") else "''", query))


@lru_cache(maxsize=4096)
def writes(query: str) -> bool:
    """Whether the statement writes (or may: a write procedure), judged from its text (once per statement text)."""
    bare = _bare(query)
    return bool(_WRITE_CLAUSE.search(bare) or _WRITE_PROCEDURE.search(bare))


def _text(query: Any) -> str:
    return str(query.text if isinstance(query, neo4j.Query) else query)


class RedisBookmarks(BookmarkManager):
    """The bookmarks of every process's last commits, in one Redis set: a transaction begins after all of them, and
    its commit replaces those it began with by its own (so the set holds about one per concurrent writer)."""

    def __init__(self, client: redis.Redis) -> None:
        self._redis = client
        self._lock = threading.Lock()
        self._local: set[str] = set()  # this process's, should Redis be unreachable a moment

    def get_bookmarks(self) -> Collection[str]:
        try:
            shared = {raw.decode() for raw in self._redis.smembers(BOOKMARKS)}  # type: ignore[union-attr]
        except redis.RedisError:
            shared = set()
        with self._lock:
            return shared | self._local

    def update_bookmarks(self, previous_bookmarks: Collection[str], new_bookmarks: Collection[str]) -> None:
        if not new_bookmarks:
            return
        with self._lock:
            self._local = set(new_bookmarks)
        try:
            pipe = self._redis.pipeline(transaction=True)
            if previous_bookmarks:
                pipe.srem(BOOKMARKS, *previous_bookmarks)
            pipe.sadd(BOOKMARKS, *new_bookmarks)
            pipe.expire(BOOKMARKS, BOOKMARKS_TTL_S)
            pipe.execute()
        except redis.RedisError:
            pass  # this process's own reads still follow its writes (self._local); others' catch up at its next


class _Routed:
    """Mixed into the driver's own class (graph/driver.py): `execute_query` routed by what the statement does, and
    sessions chained by the shared bookmarks when there are any."""

    _engram_bookmarks: RedisBookmarks | None = None

    def execute_query(self, query_: Any, parameters_: Any = None, routing_: Any = None, **kwargs: Any) -> Any:
        writing = writes(_text(query_))
        if routing_ is None:
            routing_ = neo4j.RoutingControl.WRITE if writing else neo4j.RoutingControl.READ
        elif writing and routing_ == neo4j.RoutingControl.READ:
            raise WriteInReadTransaction(f"a statement that writes was sent as a read: {_text(query_)[:200]}")
        return super().execute_query(query_, parameters_, routing_, **kwargs)  # type: ignore[misc]

    def session(self, **config: Any) -> Any:
        if self._engram_bookmarks is not None:
            config.setdefault("bookmark_manager", self._engram_bookmarks)
        return super().session(**config)  # type: ignore[misc]


_CLASSES: dict[type, type] = {}


def routed(driver: neo4j.Driver, uri: str, bookmarks: redis.Redis | None) -> neo4j.Driver:
    """`driver`, its class become the routed one; with a routing `uri` and a Redis, causally chained through Redis."""
    cls = type(driver)
    if cls not in _CLASSES:
        _CLASSES[cls] = type(f"Routed{cls.__name__}", (_Routed, cls), {})
    driver.__class__ = _CLASSES[cls]
    if bookmarks is not None and uri.startswith(ROUTING_SCHEMES):
        manager = RedisBookmarks(bookmarks)
        driver._engram_bookmarks = manager  # type: ignore[attr-defined]
        driver._query_bookmark_manager = manager  # execute_query's default
    return driver
