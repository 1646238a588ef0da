"""Concept associations over a whole space. Ingestion and forgetting keep `ASSOCIATED` up to date for the
concepts a job touches (weight = co-mentions x idf(u) x idf(v), graph/memory_writer.py); but idf depends on the
number of active propositions, which every job and every supersession changes, so the statistics of untouched
concepts drift. The periodic run recomputes df/idf and every edge of the space from the current mentions."""

from __future__ import annotations

import neo4j

from graph.cypher import load
from graph.memory_writer import refresh_concepts

BATCH = 1000


def refresh_all(driver: neo4j.Driver, database: str, space: str) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        load("consolidate/concept_ids"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    ids = [r["id"] for r in records]
    removed = 0
    for start in range(0, len(ids), BATCH):
        removed += refresh_concepts(driver, database, space, ids[start : start + BATCH])["concepts_removed"]
    return {"concepts": len(ids), "concepts_removed": removed}
