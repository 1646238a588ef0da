"""Deletions that hold while ingestion runs: each is recorded before it deletes (graph/deletion_fence.py), stops the
jobs of what it deletes whole, deletes from Neo4j, then clears what Redis holds of the scope.

The record makes every write of work begun earlier obey it, whatever stage that work is in, in any process and after
any restart; the jobs are stopped so that they neither run on nor keep the scope's text in Redis. Work that a request
made after the deletion began waits for it, and is then a new life of the scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

import redis

from app.api.security import space_counter_key
from app.api.services import ApiServices
from graph.admin import delete_space
from graph.concept_keys.tries import drop_key_logs
from graph.deletion_fence import DeletionLog, DeletionScope
from workers.tasks.job_stops import stop_deleted_jobs
from workers.vector_cache import drop_space_vectors


@dataclass(frozen=True)
class WholeErasure:
    """What deleting a whole memory space (or a space with its users) removed and stopped."""

    episodes: int
    knowledge: int
    concepts: int
    users: int
    stopped_jobs: list[str]


@dataclass(frozen=True)
class Recorded:
    """A deletion in progress: its record's id and when it started."""

    log: DeletionLog
    id: str
    started: datetime


@contextmanager
def recorded(services: ApiServices, scope: DeletionScope) -> Iterator[Recorded]:
    """Runs a deletion between its record's start and finish. The record is finished even when the deletion fails
    midway (run it again): work begun before it still obeys it, and later work need not wait."""
    log = DeletionLog(services.driver, services.database)
    deletion_id, started = log.begin(scope)
    try:
        yield Recorded(log, deletion_id, started)
    finally:
        log.finish(deletion_id)


def erase_recorded(services: ApiServices, scope: DeletionScope, erase: Callable[[], None]) -> None:
    """Runs `erase` (a forget of episodes) as a recorded deletion of `scope`. Blocking: call it in a thread."""
    with recorded(services, scope):
        erase()


def erase_whole(services: ApiServices, memory_space: str, partitions: list[str], with_users: bool) -> WholeErasure:
    """Deletes a memory space whole: `with_users`, the space itself and its users' `partitions` (deleteSpace);
    otherwise one user's partition (forget(user)). Blocking: call it in a thread."""
    scope = DeletionScope(memory_space=memory_space, whole=True, with_users=with_users)
    spaces = [memory_space, *partitions] if with_users else [memory_space]
    with recorded(services, scope) as deletion:
        stopped = stop_deleted_jobs(memory_space, with_users, deletion.started, services.jobs)
        deletion.log.record_stopped(deletion.id, stopped)
        counts = [services.scoped.counts(space) for space in spaces]
        for space in spaces:
            delete_space(services.driver, services.database, space)
        drop_scope_text(services.redis, memory_space, with_users)
    return WholeErasure(
        episodes=sum(c.get("episodes", 0) for c in counts),
        knowledge=sum(c.get("knowledge", 0) for c in counts),
        concepts=sum(c.get("concepts", 0) for c in counts),
        users=len(partitions),
        stopped_jobs=stopped,
    )


def drop_scope_text(client: redis.Redis, memory_space: str, with_users: bool) -> None:
    """Redis keeps nothing of a deleted memory space that could hold its text: key logs (with their counters) and
    phrase-vector caches, of its users' partitions too when `with_users` (found by name, so that those of a user
    whose job had not written yet go as well)."""
    spaces = {memory_space}
    if with_users:
        for pattern in (f"engram:keys:{memory_space}/*", f"engram:vectors:*:{memory_space}/*"):
            spaces.update(_memory_space_of(key.decode()) for key in client.scan_iter(pattern, count=1000))
    for space in sorted(spaces):
        drop_key_logs(client, space)
        drop_space_vectors(client, space)
    if with_users:  # the space's request count across its keys (a number, but named by the space)
        client.delete(space_counter_key(memory_space))


def _memory_space_of(key: str) -> str:
    """The memory space a key-log or phrase-cache key names (`engram:keys:<space>:<kind>[:version]`,
    `engram:vectors:<model>:<space>`); a memory space holds no ':'."""
    parts = key.split(":")
    return parts[2] if parts[1] == "keys" else parts[3]


def gone_job_message(services: ApiServices, space: str, job_id: str) -> str:
    """What to tell a caller asking for a job its space does not hold: that a deletion stopped it, when one did."""
    stopped = DeletionLog(services.driver, services.database).stopped_by(space, job_id)
    if stopped is None:
        return f"no job {job_id!r} in this space"
    return (
        f"job {job_id!r} was stopped and removed: the memory it was writing to was deleted at {stopped.isoformat()} "
        "(it wrote nothing of it); resubmit it if the memory should have it again"
    )


def sweep_deleted(services: ApiServices) -> int:
    """What a crash mid-deletion (or a stage that outlived its job) can leave in Redis of the memory spaces deleted
    whole in the last days: the records of jobs submitted before the deletion, and text caches (key logs, phrase
    vectors; those of a scope's new life are only caches, reloaded from the graph). Run when the API starts; returns
    the jobs removed."""
    removed = 0
    for deletion in DeletionLog(services.driver, services.database).whole_deletions():
        removed += len(
            stop_deleted_jobs(deletion.memory_space, deletion.with_users, deletion.started_at, services.jobs)
        )
        drop_scope_text(services.redis, deletion.memory_space, deletion.with_users)
    return removed
