"""Lineage of a proposition: which current proposition stands for it now, and what it replaced (merges,
updates, conflicts, corrections), each step with its reason and times."""

from __future__ import annotations

from datetime import datetime

import neo4j
from pydantic import BaseModel

from engram.settings import get_settings
from graph.consolidation.model import native
from graph.cypher import load
from graph.driver import get_driver


class LineageStep(BaseModel):
    id: str
    text: str
    status: str
    reason: str  # why the proposition above it replaced it
    replaced_by: str
    valid_from: datetime | None
    valid_to: datetime | None
    expired_at: datetime | None


class Lineage(BaseModel):
    id: str
    status: str
    current: str | None  # the active proposition that stands for it now (itself when active)
    replaced: list[LineageStep]  # everything it superseded, directly or transitively, nearest first


def lineage(
    space: str, proposition_id: str, *, driver: neo4j.Driver | None = None, database: str | None = None
) -> Lineage | None:
    """None when the space has no such proposition."""
    driver = driver or get_driver()
    records, _, _ = driver.execute_query(
        load("consolidate/lineage"),
        space=space,
        id=proposition_id,
        database_=database or get_settings().neo4j.database,
        routing_=neo4j.RoutingControl.READ,
    )
    if not records:
        return None
    row = records[0]
    steps = [
        LineageStep(**{**step, **{k: native(step[k]) for k in ("valid_from", "valid_to", "expired_at")}})
        for step in row["replaced"]
        if step["id"] is not None
    ]
    return Lineage(id=row["id"], status=row["status"], current=row["current"], replaced=steps)
