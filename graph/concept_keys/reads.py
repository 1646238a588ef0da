"""Reads a space's cognitive schema (its concept keys, with embeddings) from Neo4j."""

from __future__ import annotations

import neo4j
import numpy as np

from engram.extraction.assimilation import SchemaKey
from graph.cypher import load


def load_concept_keys(driver: neo4j.Driver, database: str, space: str) -> list[SchemaKey]:
    records, _, _ = driver.execute_query(load("schema_read/concept_keys"), space=space, database_=database)
    return [
        SchemaKey(r["key"], r["name"], np.asarray(r["embedding"], np.float32) if r["embedding"] else None)
        for r in records
    ]
