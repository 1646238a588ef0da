"""Deleting a scope of memory, whoever asks: GraphQL's forget and deleteSpace call this service (and so do the CLI's
`engram forget` and MCP's `forget`, which go through GraphQL). It owns the order every deletion keeps, so that it holds
while ingestion runs:

1. the deletion records itself while it holds its space's write fence (graph/deletion_fence.py): every later write of
   work begun earlier obeys it, whatever stage that work is in, in any process and after any restart;
2. a deletion of a whole scope stops the scope's jobs (so that they neither run on nor keep its text in Redis), and
   keeps their ids on its record (`gone_job_message` answers for them);
3. it deletes the records from Neo4j: a whole space (graph/admin.py), or episodes, sources and knowledge with cascade
   (graph/cascade_delete.py);
4. it clears what Redis holds of the scope's text (`ScopeText`);
5. it finishes its record, also when a step failed (run it again): work begun before it still obeys it, and later
   work need not wait.

Work that a request made after the deletion began waits for it, and is then a new life of the scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

import neo4j
import redis

from engram.scope import ScopeFilter
from graph.admin import delete_space
from graph.cascade_delete import ForgetResult, Forgetter
from graph.concept_keys.tries import drop_key_logs, reset_key_logs
from graph.deletion_fence import DeletionLog, DeletionScope
from graph.scoped import ScopedMemory
from workers.jobs import JobState, JobStore
from workers.tasks.ingest import get_scheduler
from workers.vector_cache import drop_space_vectors

# Stops the jobs of a whole-scope deletion: (memory space, with its users, the deletion's start) -> the ids stopped.
StopJobs = Callable[[str, bool, datetime], list[str]]


@dataclass(frozen=True)
class WholeErasure:
    """What deleting a whole memory space (or a space with its users) removed and stopped."""

    episodes: int
    knowledge: int
    concepts: int
    users: int
    stopped_jobs: list[str]


@dataclass(frozen=True)
class NamedForget:
    """What a forget of named ids removed (`results`, one per kind of id) and the ids that named nothing; or, where an
    episode id named episodes of several sources (`ambiguous`), nothing removed at all."""

    results: list[ForgetResult] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)


class ScopeText:
    """What Redis holds of a scope's text: key logs (with their counters) and phrase-vector caches, and the space's
    request count across its keys (a number, but named by the space: `counter_key`, the API's rate limiter's name)."""

    def __init__(self, client: redis.Redis, counter_key: Callable[[str], str] | None = None) -> None:
        self._client = client
        self._counter_key = counter_key

    def forgotten(self, space: str) -> None:
        """After a forget, Redis keeps nothing of the space that could hold its text: the key logs (every process
        reloads its tries from the graph) and the phrase-vector cache go. Finished jobs hold no payload
        (workers/jobs.py); a job still running when its text is forgotten writes it again: forget after it ends."""
        reset_key_logs(self._client, space)
        drop_space_vectors(self._client, space)

    def deleted(self, memory_space: str, with_users: bool) -> None:
        """Redis keeps nothing of a deleted memory space: its key logs and phrase-vector caches, of its users'
        partitions too when `with_users` (found by name, so that those of a user whose job had not written yet go as
        well)."""
        spaces = {memory_space}
        if with_users:
            for pattern in (f"engram:keys:{memory_space}/*", f"engram:vectors:*:{memory_space}/*"):
                spaces.update(_memory_space_of(key.decode()) for key in self._client.scan_iter(pattern, count=1000))
        for space in sorted(spaces):
            drop_key_logs(self._client, space)
            drop_space_vectors(self._client, space)
        if with_users and self._counter_key is not None:
            self._client.delete(self._counter_key(memory_space))


def _memory_space_of(key: str) -> str:
    """The memory space a key-log or phrase-cache key names (`engram:keys:<space>:<kind>[:version]`,
    `engram:vectors:<model>:<space>`); a memory space holds no ':'."""
    parts = key.split(":")
    return parts[2] if parts[1] == "keys" else parts[3]


def stop_deleted_jobs(memory_space: str, with_users: bool, before: datetime, store: JobStore) -> list[str]:
    """For a deletion of a whole memory space (`with_users`: and of its users' partitions) that began at `before`:
    every job of it submitted earlier goes from Redis, status record included, and leaves the scheduler; a stage
    already running stops at its next write (graph/deletion_fence.py) and writes nothing back to Redis. Jobs submitted
    later wait for the deletion and are the scope's new life. Returns the ids of the jobs stopped unfinished."""
    stopped: list[str] = []
    for status in store.of_scope(memory_space, with_users):
        if status.created >= before:
            continue
        if status.state in (JobState.QUEUED, JobState.RUNNING):
            stopped.append(status.id)
        store.remove(status.id)
        get_scheduler().forget(status.id)
    return stopped


class ScopeDeletion:
    """Deletes scopes of memory (see the module's docstring for the order it keeps). Blocking: call it in a thread."""

    def __init__(
        self,
        log: DeletionLog,
        forgetter: Forgetter,
        scoped: ScopedMemory,
        text: ScopeText,
        stop_jobs: StopJobs,
        erase_space: Callable[[str], None],
    ) -> None:
        self._log = log
        self._forgetter = forgetter
        self._scoped = scoped
        self._text = text
        self._stop_jobs = stop_jobs
        self._erase_space = erase_space

    @contextmanager
    def _recorded(self, scope: DeletionScope) -> Iterator[tuple[str, datetime]]:
        """Runs a deletion between its record's start and finish (its id and start); the finish comes also when the
        deletion fails midway."""
        deletion_id, started = self._log.begin(scope)
        try:
            yield deletion_id, started
        finally:
            self._log.finish(deletion_id)

    def whole(self, memory_space: str, partitions: Sequence[str], with_users: bool) -> WholeErasure:
        """Deletes a memory space whole: `with_users`, the space itself and its users' `partitions` (deleteSpace);
        otherwise one user's partition (forget(user))."""
        scope = DeletionScope(memory_space=memory_space, whole=True, with_users=with_users)
        spaces = [memory_space, *partitions] if with_users else [memory_space]
        with self._recorded(scope) as (deletion_id, started):
            stopped = self._stop_jobs(memory_space, with_users, started)
            self._log.record_stopped(deletion_id, stopped)
            counts = [self._scoped.counts(space) for space in spaces]
            for space in spaces:
                self._erase_space(space)
            self._text.deleted(memory_space, with_users)
        return WholeErasure(
            episodes=sum(c.get("episodes", 0) for c in counts),
            knowledge=sum(c.get("knowledge", 0) for c in counts),
            concepts=sum(c.get("concepts", 0) for c in counts),
            users=len(partitions),
            stopped_jobs=stopped,
        )

    def matching(self, space: str, scope: ScopeFilter) -> ForgetResult:
        """Forgets the episodes of `space` that match `scope` (agent, session, metadata), with cascade. Recorded
        first: a job in flight writes none of what matches."""
        with self._recorded(DeletionScope(space, scope=scope.properties())):
            return self._forgetter.forget_episodes(space, self._scoped.matching_episodes(space, scope))

    def named(
        self, space: str, sources: Sequence[str], episodes: Sequence[str], knowledge: Sequence[str]
    ) -> NamedForget:
        """Forgets sources and episodes (by internal or the app's own ids) with cascade, and knowledge items
        themselves. An episode id naming episodes of several sources forgets nothing."""
        refs = self._scoped.resolve(space, sources, episodes)
        if refs.ambiguous:
            return NamedForget(ambiguous=list(refs.ambiguous))
        results: list[ForgetResult] = []
        if sources or episodes:
            # The refs as asked too: a job in flight may be about to write a source or turn not found yet.
            deletion = DeletionScope(
                space, source_ids=(*sources, *refs.source_ids), episode_ids=(*episodes, *refs.episode_ids)
            )
            with self._recorded(deletion):
                if refs.source_ids:
                    results.append(self._forgetter.forget_sources(space, refs.source_ids))
                if refs.episode_ids:
                    results.append(self._forgetter.forget_episodes(space, refs.episode_ids))
        not_found = list(refs.not_found)
        if knowledge:
            forgot = self._forgetter.forget_knowledge(space, knowledge)
            results.append(forgot)
            not_found += [i for i in knowledge if i not in set(forgot.knowledge)]
        return NamedForget(results, not_found)

    def gone_job_message(self, space: str, job_id: str) -> str:
        """What to tell a caller asking for a job its space does not hold: that a deletion stopped it, when one did."""
        stopped = self._log.stopped_by(space, job_id)
        if stopped is None:
            return f"no job {job_id!r} in this space"
        return (
            f"job {job_id!r} was stopped and removed: the memory it was writing to was deleted at "
            f"{stopped.isoformat()} (it wrote nothing of it); resubmit it if the memory should have it again"
        )

    def sweep(self) -> int:
        """What a crash mid-deletion (or a stage that outlived its job) can leave in Redis of the memory spaces deleted
        whole in the last days: the records of jobs submitted before the deletion, and text caches (key logs, phrase
        vectors; those of a scope's new life are only caches, reloaded from the graph). Run when the API starts;
        returns the jobs removed."""
        removed = 0
        for deletion in self._log.whole_deletions():
            removed += len(self._stop_jobs(deletion.memory_space, deletion.with_users, deletion.started_at))
            self._text.deleted(deletion.memory_space, deletion.with_users)
        return removed


def scope_deletion(
    driver: neo4j.Driver,
    database: str,
    client: redis.Redis,
    jobs: JobStore,
    counter_key: Callable[[str], str] | None = None,
) -> ScopeDeletion:
    """The service on the stores: Neo4j (`driver`, `database`), Redis (`client`) and the job store."""
    text = ScopeText(client, counter_key)
    return ScopeDeletion(
        log=DeletionLog(driver, database),
        forgetter=Forgetter(driver, database, text.forgotten),
        scoped=ScopedMemory(driver, database),
        text=text,
        stop_jobs=lambda space, with_users, before: stop_deleted_jobs(space, with_users, before, jobs),
        erase_space=lambda space: delete_space(driver, database, space),
    )
