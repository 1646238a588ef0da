"""Read-only queries the tests use to inspect a space."""

from __future__ import annotations

from typing import Any

import neo4j


def label_counts(driver: neo4j.Driver, space: str) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        "MATCH (n {space: $space}) RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    return {r["label"]: r["n"] for r in records}


def relationship_counts(driver: neo4j.Driver, space: str) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        "MATCH (a {space: $space})-[r]->() RETURN type(r) AS type, count(r) AS n", space=space
    )
    return {r["type"]: r["n"] for r in records}


def rows(driver: neo4j.Driver, query: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(query, **params)
    return [r.data() for r in records]
