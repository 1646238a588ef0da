"""Deletions that hold against work in flight: deletion records (tombstones) and the write fence.

A deletion (a space, a user's memory, or the episodes of a session, source, filter or ids) first records itself, with
its start time, while it holds its space's write fence exclusively; it then deletes, and records when it finished.
Every write of memory takes the same fence shared, in its own transaction, and reads the deletions that the work it
belongs to must obey (`fence`): those that started after that work began (an ingest job: when it was submitted). So:

- a write that already held the fence commits before the deletion records itself, and is deleted with the rest;
- a later write of work begun before the deletion finds the record: a whole-scope deletion stops it (`ScopeDeleted`),
  and an episode-level one withholds the episodes it names and what they prove (`Withheld`);
- work begun while a deletion runs waits for it (`DeletionRunning`, retried like a transient error), and is then a new
  life of the scope: only a request made after the deletion began can write into it again.

The records live in Neo4j beside the data, so they hold across processes and restarts; Redis holds nothing of them.
What a deletion removes is graph/cascade_delete.py's (and graph/admin.py's); workers/scope_deletion.py runs a deletion
from its record to its finish.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j

from engram.scope import parent_space
from graph.cypher import load

# A deletion whose process died before it recorded its end counts as finished this long after it started (work of its
# scope waits for it until then); run the deletion again to be sure it is whole.
UNFINISHED_DELETION_S = 1800
# Records older than this go when a later deletion of the same space records itself: no work that old still runs
# (an ingest job is abandoned after a week: workers/jobs.py JOB_TTL_S).
KEEP_RECORDS_S = 8 * 24 * 3600


class ScopeDeleted(Exception):
    """The memory space the work writes to was deleted after the work began: it must write nothing more."""

    def __init__(self, memory_space: str, deletion_id: str) -> None:
        super().__init__(f"memory space {memory_space!r} was deleted (deletion {deletion_id}) after this work began")
        self.memory_space, self.deletion_id = memory_space, deletion_id


class DeletionRunning(Exception):
    """A deletion of the scope is running and began before this work: the work waits for it (retried later)."""

    def __init__(self, memory_space: str, deletion_id: str) -> None:
        super().__init__(f"a deletion in memory space {memory_space!r} is running (deletion {deletion_id})")
        self.memory_space, self.deletion_id = memory_space, deletion_id


@dataclass(frozen=True)
class DeletionScope:
    """What a deletion names inside one memory space: all of it (`whole`, with its users' partitions when
    `with_users`), or episodes by scope labels (`scope`: equal properties, as ScopeFilter.properties gives), by
    source refs or by episode refs (the ids forget was given, and those they resolved to: `Withheld`)."""

    memory_space: str
    whole: bool = False
    with_users: bool = False
    scope: dict[str, Any] = field(default_factory=dict)
    source_ids: tuple[str, ...] = ()
    episode_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Withheld:
    """The episode-level deletions a write must obey: it writes none of the sources and episodes they name. A ref is
    what forget takes (graph/scoped.py resolves it the same way in the graph): a source's internal id, its external id
    ('record/session') or its record's id; an episode's internal id, its turn id or 'record/session/turn'."""

    scopes: tuple[dict[str, Any], ...] = ()
    source_refs: frozenset[str] = frozenset()
    episode_refs: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.scopes or self.source_refs or self.episode_refs)

    def _in_scope(self, row: dict[str, Any]) -> bool:
        properties = {**row, **(row.get("metadata") or {})}
        return any(all(properties.get(k) == v for k, v in scope.items()) for scope in self.scopes)

    def names_source(self, row: dict[str, Any]) -> bool:
        """Whether a source row (as the writer's statements take it) is named."""
        external = row.get("external_id") or ""
        record = external.split("/", 1)[0]
        return bool({row["id"], external, record} & self.source_refs) or self._in_scope(row)

    def names_episode(self, row: dict[str, Any], source_external_id: str) -> bool:
        """Whether an episode row is named (its source's external id makes its 'record/session/turn' ref)."""
        refs = {row["id"], row.get("external_id") or "", f"{source_external_id}/{row.get('external_id') or ''}"}
        return bool(refs & self.episode_refs) or self._in_scope(row)


def _withheld(rows: Iterable[dict[str, Any]]) -> Withheld:
    scopes: list[dict[str, Any]] = []
    sources: set[str] = set()
    episodes: set[str] = set()
    for row in rows:
        if row["scope"] is not None:
            scopes.append(json.loads(row["scope"]))
        sources.update(row["source_ids"] or [])
        episodes.update(row["episode_ids"] or [])
    return Withheld(tuple(scopes), frozenset(sources), frozenset(episodes))


def _obeyed(memory_space: str, rows: list[dict[str, Any]], since: datetime, now: datetime) -> Withheld:
    """What work begun at `since` must obey, from the deletion rows the fence (or `in_force`) read: raises
    ScopeDeleted for a whole-scope deletion begun after it, DeletionRunning for one still running that began before
    it; returns the episode-level deletions begun after it."""
    obeyed: list[dict[str, Any]] = []
    for row in rows:
        started = row["started_at"].to_native()
        if started > since:
            if row["whole"]:
                raise ScopeDeleted(memory_space, row["id"])
            obeyed.append(row)
        elif row["finished_at"] is None and now - started < timedelta(seconds=UNFINISHED_DELETION_S):
            raise DeletionRunning(memory_space, row["id"])
    return _withheld(obeyed)


def fence(tx: neo4j.ManagedTransaction, memory_space: str, since: datetime) -> Withheld:
    """The first statement of every write of memory (an ingest's parts, a consolidation's writes): takes the space's
    write fence shared for the rest of `tx` and reads the deletions that work begun at `since` must obey. Raises
    ScopeDeleted or DeletionRunning; returns what the write must withhold."""
    result = tx.run(load("deletions/fence"), root=parent_space(memory_space), memory_space=memory_space, since=since)
    rows = [r["deletion"] for r in result if r["deletion"] is not None]
    return _obeyed(memory_space, rows, since, datetime.now(UTC))


def in_force(driver: neo4j.Driver, database: str, memory_space: str, since: datetime) -> Withheld:
    """`fence` without the fence, for a stage that writes no memory but should not work for nothing."""
    records, _, _ = driver.execute_query(
        load("deletions/in_force"),
        root=parent_space(memory_space),
        memory_space=memory_space,
        since=since,
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    )
    return _obeyed(memory_space, [r["deletion"] for r in records], since, datetime.now(UTC))


@dataclass(frozen=True)
class RecordedDeletion:
    memory_space: str
    with_users: bool
    started_at: datetime


class DeletionLog:
    """Records deletions: `begin` before anything is deleted, `finish` once all of it is."""

    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    def begin(self, scope: DeletionScope) -> tuple[str, datetime]:
        """Records the deletion (waiting for the writes that hold the fence to commit); returns its id and start."""
        deletion_id = uuid.uuid4().hex
        started = datetime.now(UTC)
        with self._driver.session(database=self._database) as session:
            session.execute_write(
                lambda tx: tx.run(
                    load("deletions/begin"),
                    id=deletion_id,
                    root=parent_space(scope.memory_space),
                    memory_space=scope.memory_space,
                    whole=scope.whole,
                    with_users=scope.with_users,
                    scope=json.dumps(scope.scope, sort_keys=True) if scope.scope else None,
                    episode_ids=list(scope.episode_ids),
                    source_ids=list(scope.source_ids),
                    started_at=started,
                    keep_after=started - timedelta(seconds=KEEP_RECORDS_S),
                ).consume()
            )
        return deletion_id, started

    def whole_deletions(self) -> list[RecordedDeletion]:
        """The whole-scope deletions still on record (the last KEEP_RECORDS_S), oldest first."""
        records, _, _ = self._driver.execute_query(
            load("deletions/whole"), database_=self._database, routing_=neo4j.RoutingControl.READ
        )
        return [
            RecordedDeletion(r["memory_space"], bool(r["with_users"]), r["started_at"].to_native()) for r in records
        ]

    def record_stopped(self, deletion_id: str, job_ids: list[str]) -> None:
        """Keeps the ids of the jobs the deletion stopped (`stopped_by` answers for them)."""
        if job_ids:
            self._driver.execute_query(
                load("deletions/record_stopped"), id=deletion_id, job_ids=job_ids, database_=self._database
            )

    def stopped_by(self, space: str, job_id: str) -> datetime | None:
        """When a deletion in `space` (or of one of its users' memories) stopped the job, if one did."""
        records, _, _ = self._driver.execute_query(
            load("deletions/stopped_job"),
            root=parent_space(space),
            job_id=job_id,
            database_=self._database,
            routing_=neo4j.RoutingControl.READ,
        )
        return records[0]["started_at"].to_native() if records else None

    def finish(self, deletion_id: str) -> None:
        self._driver.execute_query(
            load("deletions/finish"), id=deletion_id, finished_at=datetime.now(UTC), database_=self._database
        )
