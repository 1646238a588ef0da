"""Consolidation as Celery tasks on the cpu queue: one space on demand, or every space on the beat schedule.

Two runs of one space never overlap: each holds a Redis lock for its space, extended by a heartbeat for as long
as the run works (workers/held_lock.py); a run that finds the lock taken skips (the running one covers it).
Ingestion may run meanwhile (graph/consolidation/run.py says why it is safe).

    beat: ~/.cache/engram/venv/bin/celery -A workers.celery_app:app beat --loglevel INFO
          (every ENGRAM_CONSOLIDATE_INTERVAL_S seconds, default 3600, it queues engram.consolidate.all)
"""

from __future__ import annotations

from typing import Any

import neo4j
from pydantic import BaseModel

from engram.scope import validate_memory_space
from engram.settings import get_settings
from graph.consolidation.report import ConsolidationReport
from graph.consolidation.run import consolidate
from graph.cypher import load
from graph.driver import get_driver
from workers.celery_app import CPU_QUEUE, app
from workers.held_lock import held_lock
from workers.resources import get_redis
from workers.tasks.ingest import STAGE_OPTIONS


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
        return ConsolidationOutcome(space=space, skipped=False, report=consolidate(space))


def consolidation_lock_name(space: str) -> str:
    return f"engram:consolidate:lock:{space}"


def list_spaces() -> list[str]:
    records, _, _ = get_driver().execute_query(
        load("consolidate/spaces"), database_=get_settings().neo4j.database, routing_=neo4j.RoutingControl.READ
    )
    return [r["space"] for r in records]


@app.task(name="engram.consolidate.space", **STAGE_OPTIONS)
def consolidate_space(self: Any, space: str) -> dict[str, Any]:
    return consolidate_locked(space).model_dump(mode="json")


@app.task(name="engram.consolidate.all", bind=True, acks_late=True)
def consolidate_all(self: Any) -> list[str]:
    """Queue one consolidation per space (the beat schedule's entry point)."""
    spaces = list_spaces()
    for space in spaces:
        consolidate_space.apply_async(args=(space,), queue=CPU_QUEUE)
    return spaces


def submit_consolidation(space: str) -> str:
    """Queue a consolidation of `space` on the cpu queue; returns the Celery task id."""
    validate_memory_space(space)
    return str(consolidate_space.apply_async(args=(space,), queue=CPU_QUEUE).id)
