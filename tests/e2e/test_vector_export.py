"""Exports with vectors, and re-embedding (real Neo4j, worker, API and model; docs/embedding.md).

Ingest through the worker -> `engram export --vectors` through the API -> delete the space -> `engram import --bulk`
of the vectors file: the same nodes, relationships and vectors, and the same recall. A vectors file of the wrong
dimension, of another embedder, of another space, or into a space that is not empty is refused with nothing written.
`engram reembed` stopped part-way resumes where it stopped; recall refuses a space being re-embedded or holding
another embedder's vectors, naming both and the command; a write of the other family is refused too.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import neo4j
import numpy as np
import pytest

from bench.synthetic_conversations import ConversationGenerator
from engram.embedder_identity import identity_of
from engram.embedding import Embedder
from engram.formats.loading import InputFormat, parse_payload, validate_records
from engram.settings import PROJECT_ROOT, EmbeddingSettings, EngramSettings
from graph.admin import delete_space
from tests.e2e.api.conftest import issue_key
from tests.support.cli import engram, engram_here
from tests.support.graph_queries import graph_snapshot, label_counts, rows
from tests.support.jobs import ingest, wait_for_job
from workers.jobs import JobState
from workers.tasks.ingest import submit_ingest

QUERIES = ("Where does Caroline live?", "What did they say about the weekend?", "How do I deploy the service?")


def payload(lines: list[str]) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in parse_payload("\n".join(lines) + "\n", InputFormat.JSONL)]


def sample() -> list[str]:
    return (PROJECT_ROOT / "examples" / "sample.jsonl").read_text().splitlines()


def recall_ids(key: str) -> list[list[str]]:
    found = []
    for query in QUERIES:
        done = engram("recall", query, "--json", key=key)
        assert done.returncode == 0, done.stdout + done.stderr
        found.append([item["id"] for item in json.loads(done.stdout)["items"]])
    return found


def memory_snapshot(driver: neo4j.Driver, space: str) -> Any:
    """graph_snapshot of the space's memory: its API keys (not part of a memory, nor of an export) left out."""
    nodes, vectors, relationships = graph_snapshot(driver, space)
    kept = {i: n for i, n in nodes.items() if "ApiKey" not in n[0]}
    return kept, vectors, {r for r in relationships if r[1] in kept and r[2] in kept}


def same_graph(expected: Any, actual: Any) -> None:
    differing = {i: (expected[0].get(i), actual[0].get(i)) for i in expected[0].keys() | actual[0].keys()
                 if expected[0].get(i) != actual[0].get(i)}  # fmt: skip
    assert not differing, [(dict(a[1]) if a else None, dict(b[1]) if b else None) for a, b in differing.values()]
    assert actual[2] == expected[2]
    assert actual[1].keys() == expected[1].keys()
    ids = sorted(expected[1])
    np.testing.assert_allclose([actual[1][i] for i in ids], [expected[1][i] for i in ids], atol=1e-6)


def reembed(space: str, *extra: str, variant: str = "fp32") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ENGRAM_EMBEDDING_BACKEND": "onnx", "ENGRAM_EMBEDDING_ONNX_VARIANT": variant}
    command = [sys.executable, "-c", "from app.cli import main; main()", "reembed", "--space", space, *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=PROJECT_ROOT, env=env)


def test_export_with_vectors_then_delete_then_import_gives_the_same_graph_and_recall(
    driver: neo4j.Driver, settings: EngramSettings, space: str, tmp_path: Path
) -> None:
    chats = ConversationGenerator(seed=5, sessions=2, turns_per_session=8).conversations(2)
    ingest(space, payload([*sample(), *(json.dumps(c) for c in chats)]), timeout_s=900)
    key = issue_key(driver, space)
    before, recalled = memory_snapshot(driver, space), recall_ids(key)
    assert label_counts(driver, space)["Proposition"] >= 20 and any(recalled)

    out = tmp_path / "memory.jsonl"
    done = engram("export", "--out", str(out), "--vectors", key=key, timeout_s=600)
    assert done.returncode == 0, done.stdout + done.stderr
    vectors = tmp_path / "memory.jsonl.vectors.jsonl"
    header = json.loads(vectors.read_text().splitlines()[0])
    assert header["space"] == space and header["embedder"]["family"] == identity_of(settings.embedding).family
    assert len(vectors.read_text().splitlines()) == len(before[0]) + 1  # the header, then every node

    delete_space(driver, settings.neo4j.database, space)
    assert label_counts(driver, space) == {}
    done = engram_here("import", "--bulk", str(vectors), "--space", space)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "indexes online" in " ".join(done.stdout.split())
    key = issue_key(driver, space)
    same_graph(before, memory_snapshot(driver, space))
    assert recall_ids(key) == recalled

    again = engram_here("import", "--bulk", str(vectors), "--space", space)  # not empty now: refused
    assert again.returncode == 2 and "is not empty" in " ".join(again.stdout.split())


@pytest.fixture()
def vectors_file(driver: neo4j.Driver, settings: EngramSettings, space: str, tmp_path: Path) -> Path:
    """The vectors file of a small ingested space (the sample), exported in this process; the space deleted."""
    from graph.vector_export import VectorExporter

    ingest(space, payload(sample()), timeout_s=900)
    path = tmp_path / "sample.vectors.jsonl"
    VectorExporter(driver, settings.neo4j.database).write(space, identity_of(settings.embedding), path)
    delete_space(driver, settings.neo4j.database, space)
    return path


def rewritten(path: Path, change: Any) -> Path:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    change(lines)
    target = path.with_name("changed.vectors.jsonl")
    target.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return target


def refused(driver: neo4j.Driver, path: Path, space: str, *words: str) -> None:
    done = engram_here("import", "--bulk", str(path), "--space", space)
    assert done.returncode == 2, done.stdout + done.stderr
    said = " ".join(done.stdout.split())
    for word in words:
        assert word in said, said
    assert "nothing written" in said
    assert label_counts(driver, space) == {}


def test_a_vectors_file_of_another_dimension_embedder_or_space_is_refused_with_nothing_written(
    driver: neo4j.Driver, space: str, vectors_file: Path
) -> None:
    def short_vector(lines: list[dict[str, Any]]) -> None:
        line = next(line for line in lines[1:] if line.get("label") == "Proposition")
        line["embedding"] = base64.b64encode(np.zeros(383, "<f4").tobytes()).decode()

    refused(driver, rewritten(vectors_file, short_vector), space, "embedding has 383 dimensions", "says 384", "line")

    def int8(lines: list[dict[str, Any]]) -> None:
        embedder = lines[0]["embedder"]
        embedder["variant"] = "int8"
        embedder["family"] = embedder["family"].replace("/fp32", "/int8")

    refused(driver, rewritten(vectors_file, int8), space, "onnx int8", "onnx fp32", "engram reembed")

    def wider(lines: list[dict[str, Any]]) -> None:
        lines[0]["dimensions"] = 768

    refused(driver, rewritten(vectors_file, wider), space, "768 dimensions", "384")

    def dangling(lines: list[dict[str, Any]]) -> None:
        line = next(line for line in lines[1:] if line.get("label") == "Proposition")
        line["out"].append(["MENTIONS", "Concept", "con_nowhere", {}])

    refused(driver, rewritten(vectors_file, dangling), space, "con_nowhere", "which the file lacks")
    refused(driver, vectors_file, "test-another-space", "is an export of memory space")


def test_reembed_resumes_after_a_stop_and_recall_refuses_a_space_of_another_embedder(
    driver: neo4j.Driver, settings: EngramSettings, space: str
) -> None:
    ingest(space, payload(sample()), timeout_s=900)
    key = issue_key(driver, space)
    recalled = recall_ids(key)
    total = sum(
        rows(driver, f"MATCH (n:{label} {{space: $s}}) WHERE n.embedding IS NOT NULL RETURN count(n) AS n", s=space)[0][
            "n"
        ]
        for label in ("Proposition", "Concept", "Intent", "Prescription", "Episode")
    )

    nodes = sum(label_counts(driver, space).values())
    first = reembed(space, "--limit", "10", "--page", "5", variant="int8")
    assert first.returncode == 0 and "re-embedded 10 nodes" in first.stdout and "run again" in first.stdout
    stopped = engram("recall", QUERIES[0], key=key)
    assert stopped.returncode != 0 and "being re-embedded" in stopped.stdout + stopped.stderr
    # A write during the re-embedding is refused (ingest/record_embedder), the job's error saying why: nothing of it
    # is written.
    document = {"type": "document", "id": "written-meanwhile", "text": "Lena keeps her kayak at the boat club."}
    written = wait_for_job(submit_ingest(space, validate_records([document])), 900)
    assert written.state is JobState.FAILED
    assert "re-embedded" in written.error and f"engram reembed --space {space}" in written.error, written.error
    assert sum(label_counts(driver, space).values()) == nodes  # not even its new concepts

    second = reembed(space, "--page", "5", variant="int8")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "resumed after" in second.stdout and f"re-embedded {total - 10} nodes" in second.stdout
    # int8 quantises activations per call, so a text's vector moves a little with its batch: compare by cosine.
    (prop,) = rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.text AS t, p.embedding AS v LIMIT 1", s=space)
    stored = np.asarray(prop["v"], np.float32)
    int8 = Embedder(EmbeddingSettings(backend="onnx", onnx_variant="int8"), threads=1).encode([prop["t"]])[0]
    fp32 = Embedder(EmbeddingSettings(backend="onnx", onnx_variant="fp32"), threads=1).encode([prop["t"]])[0]
    assert float(stored @ int8) > 0.97 and not np.allclose(stored, fp32, atol=1e-4)

    mixed = engram("recall", QUERIES[0], key=key)
    said = " ".join((mixed.stdout + mixed.stderr).split())
    assert mixed.returncode != 0
    assert "onnx int8" in said and "onnx fp32" in said and f"engram reembed --space {space}" in said

    back = reembed(space)
    assert back.returncode == 0 and f"re-embedded {total} nodes" in back.stdout
    assert recall_ids(key) == recalled
