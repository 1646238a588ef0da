"""Whole-space administration."""

from __future__ import annotations

import neo4j

from graph.cypher import load
from graph.space_indexes import drop


def delete_space(driver: neo4j.Driver, database: str, space: str) -> None:
    """Delete a space and everything in it (batched; `CALL ... IN TRANSACTIONS` needs an auto-commit run)."""
    with driver.session(database=database) as session:
        session.run(load("admin/delete_space"), space=space).consume()
    drop(driver, database, space)
