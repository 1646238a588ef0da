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


def association_errors(driver: neo4j.Driver, space: str) -> tuple[int, int]:
    """(edges whose count is not the true co-mention count, co-mentioned pairs without an edge): both 0 when
    ASSOCIATED is consistent with MENTIONS."""
    (wrong,) = rows(
        driver,
        "MATCH (a:Concept {space: $s})-[r:ASSOCIATED]->(b:Concept) "
        "WITH r, COUNT { (a)<-[:MENTIONS]-(p:Proposition)-[:MENTIONS]->(b) WHERE p.status = 'active' } AS actual "
        "WHERE actual <> r.count RETURN count(*) AS n",
        s=space,
    )
    (missing,) = rows(
        driver,
        "MATCH (a:Concept {space: $s})<-[:MENTIONS]-(p:Proposition)-[:MENTIONS]->(b:Concept) "
        "WHERE p.status = 'active' AND a.id < b.id AND NOT (a)-[:ASSOCIATED]-(b) RETURN count(*) AS n",
        s=space,
    )
    return int(wrong["n"]), int(missing["n"])


def plan_operators(driver: neo4j.Driver, query: str, **params: Any) -> list[str]:
    """The operators of the plan Neo4j would run for `query` (EXPLAIN: nothing is executed)."""
    _, summary, _ = driver.execute_query(f"EXPLAIN {query}", **params)
    operators, pending = [], [summary.plan]
    while pending:
        step = pending.pop()
        operators.append(step["operatorType"].split("@")[0])
        pending.extend(step.get("children", []))
    return operators


# Set by the database at write time (datetime()), so two writes of the same input differ in them; a supersession
# stamps when it was linked (the replaced node's expired_at, the SUPERSEDES edge's at).
NODE_WRITE_TIMES = ("recorded_at", "expired_at")
WRITE_TIMED_LABELS = {"Space", "Concept"}  # their created_at too (a Source's comes from the input)
EDGE_WRITE_TIMES = {"SUPERSEDES": "at"}


def graph_snapshot(driver: neo4j.Driver, space: str) -> tuple[dict[str, Any], dict[str, list[float]], set[Any]]:
    """A space as comparable sets: {id: (labels, properties)} without embeddings or write times, {id: embedding},
    and {(type, start id, end id, properties)} of every relationship starting in the space."""
    nodes: dict[str, Any] = {}
    vectors: dict[str, list[float]] = {}
    for row in rows(
        driver, "MATCH (n {space: $s}) RETURN n.id AS id, labels(n) AS labels, properties(n) AS p", s=space
    ):
        props = dict(row["p"])
        vector = props.pop("embedding", None)
        if vector is not None:
            vectors[row["id"]] = vector
        for written in NODE_WRITE_TIMES:
            props.pop(written, None)
        if WRITE_TIMED_LABELS & set(row["labels"]):
            props.pop("created_at", None)
        idf = props.pop("idf", None)
        props["idf"] = None if idf is None else round(idf, 9)
        nodes[row["id"]] = (tuple(sorted(row["labels"])), tuple(sorted((k, repr(v)) for k, v in props.items())))
    relationships = {
        (
            r["type"],
            r["a"],
            r["b"],
            tuple(sorted((k, repr(v)) for k, v in r["p"].items() if k != EDGE_WRITE_TIMES.get(r["type"]))),
        )
        for r in rows(
            driver,
            "MATCH (a {space: $s})-[r]->(b) RETURN type(r) AS type, a.id AS a, b.id AS b, properties(r) AS p",
            s=space,
        )
    }
    return nodes, vectors, relationships
