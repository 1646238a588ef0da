"""Schema migrations: applied idempotently, recorded in the graph, edits to applied files refused."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import neo4j
import pytest

from engram.extraction.keyphrases import title_key
from engram.extraction.trajectory import Segment, StepView
from graph.cypher import split_statements
from graph.migrations import SCHEMA_DIR, MigrationError, applied_versions, discover, migrate

# The schema files as they lie on disk, read without the code under test: version (the file name's first four
# digits) -> the SHA-256 of the file's bytes.
SCHEMA_FILES = Path(__file__).resolve().parents[2] / "cypher" / "schema"


def _files_on_disk() -> dict[int, str]:
    return {int(path.name[:4]): hashlib.sha256(path.read_bytes()).hexdigest() for path in SCHEMA_FILES.glob("*.cypher")}


def _schema_file(prefix: str) -> str:
    [path] = SCHEMA_FILES.glob(f"{prefix}_*.cypher")
    return path.read_text(encoding="utf-8")


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
    on_disk = _files_on_disk()
    assert set(on_disk) >= set(range(1, 11)), sorted(on_disk)  # 0001 .. 0010 at least, and no gap below
    assert applied_versions(driver, "neo4j") == on_disk


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


PRESCRIPTION_TEXT = "To put a clean mug in shelf.: 1. go to sinkbasin 1; 2. clean mug 1 with sinkbasin 1"
ACTIONS = ["go to sinkbasin 1", "clean mug 1 with sinkbasin 1"]
OBSERVATIONS = ["You pick up the mug 1 from the cabinet 1.", "On the sinkbasin 1, you see nothing!"]
# The intent, then each word of the actions and then of the observations (in step order) once, lower-cased.
PRESCRIPTION_TERMS = (
    "put a clean mug in shelf. go to sinkbasin 1 clean mug with you pick up the from cabinet on see nothing"
)


def test_prescriptions_written_before_0008_get_the_terms_ingestion_writes(driver: neo4j.Driver, space: str) -> None:
    """0008 gives a prescription the words of its intent, actions and observed states (from the episodes proving it,
    in step order) each once, as `Segment.prescription_terms` does for new ones."""
    driver.execute_query(
        """
        UNWIND range(0, size($observations) - 1) AS i
        CREATE (:Episode {space: $space, id: 'e' + i, seq: i, observation: $observations[i]})
        WITH collect('e' + i) AS ids
        CREATE (p:Prescription {space: $space, id: 'pre-old', text: $text, steps: $actions, terms: 'old terms'})
        WITH p, ids
        MATCH (e:Episode {space: $space}) WHERE e.id IN ids
        CREATE (p)-[:PROVEN_BY]->(e)
        """,
        space=space,
        text=PRESCRIPTION_TEXT,
        actions=ACTIONS,
        observations=OBSERVATIONS,
    )
    for statement in split_statements(_schema_file("0008")):
        driver.execute_query(statement)
    records, _, _ = driver.execute_query(
        "MATCH (p:Prescription {space: $space, id: 'pre-old'}) RETURN p.terms AS terms", space=space
    )
    assert [r["terms"] for r in records] == [PRESCRIPTION_TERMS]
    # Ingestion writes the same for a new prescription of these steps.
    segment = Segment(
        "put a clean mug in shelf.",
        [
            StepView(f"e{i}", action, "", None, seen)
            for i, (action, seen) in enumerate(zip(ACTIONS, OBSERVATIONS, strict=True))
        ],
    )
    assert segment.prescription_text() == PRESCRIPTION_TEXT
    assert segment.prescription_terms() == PRESCRIPTION_TERMS


TITLE_KEYS = {
    "The Lake District": "lake district",  # the leading article dropped
    "Alice in Wonderland (1951 film)": "alice in wonderland",  # the trailing qualifier dropped
    "Mākaha, Hawaii": "m kaha hawaii",  # runs of a-z and 0-9 only
    "Armando Iannucci's Charm Offensive": "armando iannucci charm offensive",  # possessive 's dropped
    "Bridget Jones’s Diaries": "bridget jones diary",  # a curly apostrophe too; -ies -> -y
    "Ann B. Davis": "ann b davis",  # -is stays
    "Crisis": "crisis",
    "Batches": "batch",  # -ches -> -ch
    "Cities of the Plain": "cities of the plain",  # only the last word is made singular
    "A-flat clarinet": "a flat clarinet",  # "A-" is no article
    "(untitled)": None,  # nothing is left: no key
}


def test_documents_written_before_0010_get_the_title_key_ingestion_writes(driver: neo4j.Driver, space: str) -> None:
    """0010 computes in Cypher what `title_key` computes in Python; a conversation's title names no subject."""
    driver.execute_query(
        """
        CREATE (:Source {space: $space, id: 'chat', kind: 'conversation', title: 'The Lake District'})
        WITH *
        UNWIND $titles AS title
        CREATE (:Source {space: $space, id: 'doc: ' + title, kind: 'document', title: title})
        """,
        space=space,
        titles=list(TITLE_KEYS),
    )
    for statement in split_statements(_schema_file("0010")):
        driver.execute_query(statement)
    records, _, _ = driver.execute_query(
        "MATCH (s:Source {space: $space}) RETURN s.id AS id, s.title_key AS key", space=space
    )
    assert {r["id"]: r["key"] for r in records} == {"chat": None} | {f"doc: {t}": k for t, k in TITLE_KEYS.items()}
    # Ingestion writes the same ("" where no key is left).
    assert {t: title_key(t) or None for t in TITLE_KEYS} == TITLE_KEYS
