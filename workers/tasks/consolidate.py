"""Consolidation as Celery tasks on the cpu queue: one space on demand, or every space on the beat schedule.

Two runs of one space never overlap: each holds a Redis lock for its space, extended by a heartbeat for as long
as the run works (workers/held_lock.py); a run that finds the lock taken skips (the running one covers it).
Ingestion may run meanwhile (graph/consolidation/run.py says why it is safe). A run waits for a worker slot in the
fair scheduler (workers/scheduler.py), as a one-stage job of its space: it counts against its space's share of the
slots like an ingest stage, so one tenant's consolidations cannot hold the workers while another's ingest waits.

    beat: ~/.cache/engram/venv/bin/celery -A workers.celery_app:app beat --loglevel INFO
          (every ENGRAM_CONSOLIDATE_INTERVAL_S seconds, default 3600, it queues engram.consolidate.all)
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import neo4j
from pydantic import BaseModel

from engram.logs import correlation_id
from engram.scope import validate_memory_space
from engram.settings import get_settings
from graph.admin import delete_space
from graph.consolidation.report import ConsolidationReport
from graph.consolidation.run import consolidate
from graph.cypher import load
from graph.deletion_fence import DeletionRunning, ScopeDeleted, in_force
from graph.driver import get_driver
from workers.celery_app import app
from workers.held_lock import held_lock
from workers.resources import get_redis
from workers.scheduler import CONSOLIDATION, CONSOLIDATION_TASK
from workers.tasks.ingest import STAGE_OPTIONS, get_scheduler


class ConsolidationOutcome(BaseModel):
    space: str
    skipped: bool  # another run of this space held the lock
    report: ConsolidationReport | None


def consolidate_locked(space: str, wait_s: float = 0.0) -> ConsolidationOutcome:
    """Consolidate `space` unless another run holds its lock (waiting up to `wait_s` seconds for it)."""
    validate_memory_space(space)
    ttl_s = get_settings().worker.lock_ttl_s
    with held_lock(get_redis(), consolidation_lock_name(space), ttl_s, wait_s) as taken:
        if not taken:
            return ConsolidationOutcome(space=space, skipped=True, report=None)
        since = datetime.now(UTC)
        report = consolidate(space)
        _sweep_if_deleted(space, since)
        return ConsolidationOutcome(space=space, skipped=False, report=report)


def _sweep_if_deleted(space: str, since: datetime) -> None:
    """A run's writes (dimensions, merged statements, aliases) do not take the deletion fence one by one: when the
    space was deleted whole while the run worked, what the run wrote after the deletion is deleted once it ends."""
    database = get_settings().neo4j.database
    try:
        in_force(get_driver(), database, space, since)
    except ScopeDeleted:
        delete_space(get_driver(), database, space)
    except DeletionRunning:
        pass  # the run began inside a deletion still running (rare): not swept; docs/operations.md says so


def consolidation_lock_name(space: str) -> str:
    return f"engram:consolidate:lock:{space}"


def list_spaces() -> list[str]:
    records, _, _ = get_driver().execute_query(
        load("consolidate/spaces"), database_=get_settings().neo4j.database, routing_=neo4j.RoutingControl.READ
    )
    return [r["space"] for r in records]


@app.task(name=CONSOLIDATION_TASK, **STAGE_OPTIONS)
def consolidate_space(self: Any, space: str) -> dict[str, Any]:
    get_redis().delete(waiting_consolidation_key(space))  # a request from now on needs a run of its own
    try:
        return consolidate_locked(space).model_dump(mode="json")
    finally:  # its slot goes back (a run the scheduler does not hold, sent before it scheduled these, moves nothing)
        get_scheduler().finish(str(self.request.id), CONSOLIDATION)


@app.task(name="engram.consolidate.all", bind=True, acks_late=True)
def consolidate_all(self: Any) -> list[str]:
    """Queue one consolidation per space (the beat schedule's entry point)."""
    spaces = list_spaces()
    for space in spaces:
        submit_consolidation(space)
    return spaces


def waiting_consolidation_key(space: str) -> str:
    return f"engram:consolidate:waiting:{space}"


def submit_consolidation(space: str) -> str:
    """Schedule a consolidation of `space` (it waits for a worker slot in the fair scheduler, then runs on the cpu
    queue); returns its Celery task id, fixed now so that its state can be asked before it is sent. A run of the
    space already waiting, not yet started, covers the request: its id is returned, so a client that asks again
    and again queues one run, not one per call."""
    validate_memory_space(space)
    task_id = str(uuid.uuid4())
    ttl_s = 7 * 24 * 3600  # a run lost with its scheduler state must not block the space's next request forever
    if not get_redis().set(waiting_consolidation_key(space), task_id, nx=True, ex=ttl_s):
        waiting = get_redis().get(waiting_consolidation_key(space))
        if waiting is not None:
            return waiting.decode() if isinstance(waiting, bytes) else str(waiting)
        get_redis().set(waiting_consolidation_key(space), task_id, ex=ttl_s)  # it started in between
    get_scheduler().submit(task_id, space, correlation_id(), stage=CONSOLIDATION)
    return task_id
