"""Schema migrations: applied idempotently, recorded in the graph, edits to applied files refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import neo4j
import pytest

from engram.extraction.keyphrases import title_key
from engram.extraction.trajectory import Segment, StepView
from graph.cypher import split_statements
from graph.migrations import SCHEMA_DIR, MigrationError, applied_versions, discover, migrate


def _schema(driver: neo4j.Driver) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    constraints, _, _ = driver.execute_query(
        "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties RETURN name, type, labelsOrTypes, properties"
    )
    indexes, _, _ = driver.execute_query(
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state "
        "RETURN name, type, labelsOrTypes, properties, state"
    )
    return _rows(constraints), _rows(indexes)


def _rows(records: list[neo4j.Record]) -> list[tuple[str, ...]]:
    return sorted(tuple(str(v) for v in r.values()) for r in records)


def test_migrating_twice_gives_the_same_schema(driver: neo4j.Driver) -> None:
    migrate(driver, "neo4j")
    first = _schema(driver)
    assert migrate(driver, "neo4j") == []
    assert _schema(driver) == first
    constraints, indexes = first
    names = {row[0] for row in constraints} | {row[0] for row in indexes}
    for label in [
        "space",
        "source",
        "episode",
        "proposition",
        "concept",
        "intent",
        "prescription",
        "dimension",
    ]:
        assert f"{label}_space_id" in names
    for vector_index in ["proposition_embedding", "concept_embedding", "episode_embedding"]:
        assert vector_index in names
    assert {"proposition_text", "episode_text", "concept_name"} <= names
    assert all(row[-1] == "ONLINE" for row in indexes)
    assert set(applied_versions(driver, "neo4j")) == {m.version for m in discover()}


def test_uniqueness_constraint_rejects_a_duplicate_create(driver: neo4j.Driver, space: str) -> None:
    driver.execute_query("CREATE (:Proposition {space: $space, id: 'p1'})", space=space)
    with pytest.raises(neo4j.exceptions.ConstraintError):
        driver.execute_query("CREATE (:Proposition {space: $space, id: 'p1'})", space=space)


def test_an_applied_file_that_was_edited_is_refused(driver: neo4j.Driver, tmp_path: Path) -> None:
    for path in SCHEMA_DIR.glob("*.cypher"):
        shutil.copy(path, tmp_path / path.name)
    first = sorted(tmp_path.glob("*.cypher"))[0]
    first.write_text(first.read_text() + "\n// edited\n")
    with pytest.raises(MigrationError, match="changed after it was applied"):
        migrate(driver, "neo4j", tmp_path)


def test_badly_named_schema_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "add_things.cypher").write_text("RETURN 1")
    with pytest.raises(MigrationError, match="NNNN_name"):
        discover(tmp_path)


def test_prescriptions_written_before_0008_get_the_terms_ingestion_writes(driver: neo4j.Driver, space: str) -> None:
    """0008 gives a prescription the words of its intent, actions and observed states (from the episodes proving it,
    in step order) each once, as `Segment.prescription_terms` does for new ones."""
    segment = Segment(
        "put a clean mug in shelf.",
        [
            StepView("e0", "go to sinkbasin 1", "", None, "You pick up the mug 1 from the cabinet 1."),
            StepView("e1", "clean mug 1 with sinkbasin 1", "", None, "On the sinkbasin 1, you see nothing!"),
        ],
    )
    driver.execute_query(
        """
        UNWIND $steps AS step
        CREATE (:Episode {space: $space, id: step.id, seq: step.seq, observation: step.observation})
        WITH collect(step.id) AS ids
        CREATE (p:Prescription {space: $space, id: 'pre-old', text: $text, steps: $actions, terms: 'old terms'})
        WITH p, ids
        MATCH (e:Episode {space: $space}) WHERE e.id IN ids
        CREATE (p)-[:PROVEN_BY]->(e)
        """,
        space=space,
        text=segment.prescription_text(),
        actions=[s.action for s in segment.steps],
        steps=[{"id": s.episode_id, "seq": i, "observation": s.observation} for i, s in enumerate(segment.steps)],
    )
    migration = next(m for m in discover() if m.version == 8)
    for statement in split_statements(migration.text):
        driver.execute_query(statement)
    records, _, _ = driver.execute_query(
        "MATCH (p:Prescription {space: $space, id: 'pre-old'}) RETURN p.terms AS terms", space=space
    )
    terms = records[0]["terms"].split()
    assert terms == segment.prescription_terms().split()
    assert {"sinkbasin", "pick", "nothing"} <= set(terms)


def test_documents_written_before_0010_get_the_title_key_ingestion_writes(driver: neo4j.Driver, space: str) -> None:
    """0010 computes in Cypher what `title_key` computes in Python; a conversation's title names no subject."""
    titles = [
        "The Lake District",
        "Alice in Wonderland (1951 film)",
        "Mākaha, Hawaii",
        "Armando Iannucci's Charm Offensive",
        "Bridget Jones’s Diaries",
        "Ann B. Davis",
        "Crisis",
        "Batches",
        "Cities of the Plain",
        "A-flat clarinet",
        "(untitled)",
    ]
    driver.execute_query(
        """
        CREATE (:Source {space: $space, id: 'chat', kind: 'conversation', title: 'The Lake District'})
        WITH *
        UNWIND range(0, size($titles) - 1) AS i
        CREATE (:Source {space: $space, id: 'doc-' + i, kind: 'document', title: $titles[i]})
        """,
        space=space,
        titles=titles,
    )
    migration = next(m for m in discover() if m.version == 10)
    for statement in split_statements(migration.text):
        driver.execute_query(statement)
    records, _, _ = driver.execute_query(
        "MATCH (s:Source {space: $space}) RETURN s.id AS id, s.title AS title, s.title_key AS key", space=space
    )
    keys = {r["id"]: r["key"] for r in records}
    assert keys.pop("chat") is None
    assert keys == {f"doc-{i}": title_key(title) or None for i, title in enumerate(titles)}
    assert keys["doc-0"] == "lake district" and keys["doc-10"] is None
