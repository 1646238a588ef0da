"""`engram import` builds the graph the ingest pipeline builds from the same records (real Neo4j, worker, model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
import numpy as np
import pytest

from bench.synthetic_conversations import ConversationGenerator
from engram.formats.loading import InputFormat, parse_payload
from engram.settings import PROJECT_ROOT, EngramSettings
from graph.admin import delete_space
from graph.consolidation.associations import refresh_all
from tests.support.cli import engram_here
from tests.support.graph_queries import graph_snapshot, label_counts
from tests.support.jobs import ingest

Snapshot = tuple[dict[str, Any], dict[str, list[float]], set[Any]]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """examples/sample.jsonl (a conversation, a document, a trajectory) and three small invented chats."""
    lines = (PROJECT_ROOT / "examples" / "sample.jsonl").read_text().splitlines()
    chats = ConversationGenerator(seed=5, sessions=2, turns_per_session=8).conversations(3)
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join([*lines, *(json.dumps(c) for c in chats)]) + "\n")
    return path


def payload(path: Path) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in parse_payload(path.read_text(), InputFormat.JSONL)]


def assert_same_graph(expected: Snapshot, actual: Snapshot) -> None:
    nodes, vectors, relationships = expected
    assert actual[0] == nodes
    assert actual[2] == relationships
    assert actual[1].keys() == vectors.keys()
    ids = sorted(vectors)
    np.testing.assert_allclose([actual[1][i] for i in ids], [vectors[i] for i in ids], atol=1e-5)


def run_import(path: Path, space: str, *extra: str) -> str:
    result = engram_here("import", "--bulk", str(path), "--space", space, *extra)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_import_writes_what_one_ingest_job_writes_and_a_rerun_nothing(
    driver: neo4j.Driver, settings: EngramSettings, space: str, corpus: Path
) -> None:
    ingest(space, payload(corpus), timeout_s=600)
    ingested = graph_snapshot(driver, space)
    counts = label_counts(driver, space)
    # One whole procedure per trajectory (docs/procedures.md).
    assert counts["Proposition"] >= 40 and counts["Prescription"] == 1 and counts["Source"] == 10
    delete_space(driver, settings.neo4j.database, space)
    assert label_counts(driver, space) == {}

    run_import(corpus, space)
    assert_same_graph(ingested, graph_snapshot(driver, space))

    again = run_import(corpus, space)
    assert "6 already stored, skipped" in again and "0 propositions" in again
    assert_same_graph(ingested, graph_snapshot(driver, space))


def test_import_in_batches_writes_what_ingest_jobs_of_that_size_write(
    driver: neo4j.Driver, settings: EngramSettings, space: str, corpus: Path
) -> None:
    """Batches of 2 records against jobs of 2 records, one after another: later batches assimilate their phrases
    into the keys of the earlier ones and repeat some of their statements. Ingestion leaves each concept's idf as
    of the last job that mentioned it; consolidation's association step (which the import ends with) recounts it."""
    records = payload(corpus)
    for start in range(0, len(records), 2):
        ingest(space, records[start : start + 2], timeout_s=600)
    refresh_all(driver, settings.neo4j.database, space)
    ingested = graph_snapshot(driver, space)
    delete_space(driver, settings.neo4j.database, space)

    run_import(corpus, space, "--batch", "2", "--writers", "3")
    assert_same_graph(ingested, graph_snapshot(driver, space))


def test_bad_input_is_refused_and_nothing_written(driver: neo4j.Driver, space: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = (PROJECT_ROOT / "examples" / "sample.jsonl").read_text().splitlines()[0]
    path.write_text(good + "\n" + json.dumps({"type": "document", "id": "d", "txt": "typo"}) + "\n")
    result = engram_here("import", "--bulk", str(path), "--space", space)
    assert result.returncode == 2
    assert "line-record 2 (id 'd')" in result.stdout and "txt" in result.stdout
    assert label_counts(driver, space) == {}
