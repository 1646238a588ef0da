"""Every statement that writes an embedding stores it in 32-bit floats (db.create.setNodeVectorProperty): half the
bytes of a 64-bit list for each exact scan of a space to read, and nothing lost, since the model computes in 32 bits.
Each statement is given 0.1, which 32 bits cannot hold exactly: a 64-bit store (a plain SET) gives back 0.1 itself."""

from __future__ import annotations

from typing import Any

import neo4j
import numpy as np
import pytest

from graph.cypher import load, split_statements
from graph.migrations import discover

GIVEN = [0.1, 0.2, 0.7]
STORED_IN_32_BITS = [float(np.float32(x)) for x in GIVEN]
LABELS = ("Proposition", "Episode", "Concept", "Intent", "Prescription")

# (statement, label and id of the node it writes, what must exist first, its parameters)
WRITES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("ingest/merge_concepts", "Concept", "c1", "",
     {"concepts": [{"id": "c1", "key": "k", "name": "k", "embedding": GIVEN}]}),
    ("keys/accommodate_concept", "Concept", "c2", "", {"id": "c2", "key": "k2", "name": "k2", "embedding": GIVEN}),
    ("ingest/merge_intents", "Intent", "i1", "", {"intents": [{"id": "i1", "text": "make tea", "embedding": GIVEN}]}),
    (
        "ingest/merge_episodes",
        "Episode",
        "e1",
        "CREATE (:Source {space: $space, id: 's1'})",
        {"episodes": [{"id": "e1", "source_id": "s1", "seq": 0, "text": "Ana: tea?", "embedding": GIVEN}],
         "extraction": "test"},
    ),
    (
        "ingest/merge_propositions",
        "Proposition",
        "p1",
        "",
        {"propositions": [{"id": "p1", "text": "Ana drinks tea", "episode_ids": [], "embedding": GIVEN}]},
    ),
    (
        "ingest/merge_prescriptions",
        "Prescription",
        "r1",
        "CREATE (:Intent {space: $space, id: 'i1', text: 'make tea'})",
        {"prescriptions": [{"id": "r1", "intent_id": "i1", "text": "To make tea: 1. boil", "terms": "make tea boil",
                            "steps": ["boil"], "episode_ids": [], "embedding": GIVEN}]},
    ),
    (
        "consolidate/correct_proposition",
        "Proposition",
        "p2",
        "CREATE (:Proposition {space: $space, id: 'p0', text: 'Ana drinks coffee', status: 'active'})",
        {"old_id": "p0", "new_id": "p2", "text": "Ana drinks tea", "subject": "Ana", "predicate": "drinks",
         "object": "tea", "valid_from": None, "reason": "she said tea", "keys": [], "embedding": GIVEN,
         "source_id": "src-correction", "episode_id": "ep-correction", "episode_external_id": "correction/p0",
         "episode_text": "Ana drinks tea (correction: she said tea)"},
    ),
]  # fmt: skip


def _embedding(driver: neo4j.Driver, space: str, label: str, node_id: str) -> list[float]:
    records, _, _ = driver.execute_query(
        f"MATCH (n:{label} {{space: $space, id: $id}}) RETURN n.embedding AS embedding", space=space, id=node_id
    )
    assert len(records) == 1, f"{label} {node_id} not written"
    embedding: list[float] = records[0]["embedding"]
    return embedding


@pytest.mark.parametrize(("statement", "label", "node_id", "setup", "params"), WRITES, ids=[w[0] for w in WRITES])
def test_each_write_stores_embeddings_in_32_bits(
    driver: neo4j.Driver, space: str, statement: str, label: str, node_id: str, setup: str, params: dict[str, Any]
) -> None:
    if setup:
        driver.execute_query(setup, space=space)
    driver.execute_query(load(statement), space=space, **params)
    assert _embedding(driver, space, label, node_id) == STORED_IN_32_BITS


def test_embeddings_written_before_0009_are_rewritten_in_32_bits(driver: neo4j.Driver, space: str) -> None:
    for label in LABELS:  # as a plain SET stored them before
        driver.execute_query(f"CREATE (:{label} {{space: $space, id: 'old', embedding: $v}})", space=space, v=GIVEN)
        assert _embedding(driver, space, label, "old") == GIVEN
    migration = next(m for m in discover() if m.version == 9)
    for statement in split_statements(migration.text):
        driver.execute_query(statement)
    for label in LABELS:
        assert _embedding(driver, space, label, "old") == STORED_IN_32_BITS
