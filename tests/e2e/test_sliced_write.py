"""A large document's write stage in time slices (issue 47: a stage holds a worker slot for a few seconds at a time).

The write is cut into transactions between passages (graph/memory_writer.py `plan_parts`), and a worker whose time
slice is spent stops between two and waits for a slot again. Written that way, with a re-ingest of an edited and
shortened version (whose retirement of what the old text alone said runs once every part is in), the space holds
exactly what the same version written whole holds."""

from __future__ import annotations

import os
import signal
from typing import Any

import neo4j

from engram.formats.loading import validate_records
from graph.driver import get_driver
from tests.support.jobs import wait_for_job
from tests.support.restarts import graph_signature
from tests.support.workers import start_worker
from workers.jobs import JobState
from workers.tasks.ingest import submit_ingest

WORDS = ["harbor", "lantern", "meadow", "copper", "violin", "glacier", "orchard", "canyon", "ember", "falcon"]


def _document(sentences: int, edited: bool) -> list[dict[str, Any]]:
    lines = [
        f"The {WORDS[i % 10]} team moved the {WORDS[(i * 3) % 10]} crate {i} to the {WORDS[(i * 7) % 10]} dock."
        if not (edited and i % 50 == 7)
        else f"Nobody touched the {WORDS[(i * 3) % 10]} kayak {i} at the {WORDS[i % 10]} pier."
        for i in range(sentences)
    ]
    paragraphs = [" ".join(lines[i : i + 8]) for i in range(0, len(lines), 8)]
    return [{"type": "document", "id": "manual", "text": "\n\n".join(paragraphs)}]


def _ingest(space: str, payload: list[dict[str, Any]]) -> None:
    status = wait_for_job(submit_ingest(space, validate_records(payload)), timeout_s=900)
    assert status.state is JobState.SUCCEEDED, status.error


def test_a_document_written_in_slices_equals_one_written_whole(
    driver: neo4j.Driver, space: str, main_worker_stopped: None
) -> None:
    whole = f"{space}-whole"
    sliced = start_worker("sliced-write", ENGRAM_WORKER_STAGE_SLICE_S="0.01")  # a slice ends after every part
    try:
        _ingest(space, _document(480, edited=False))
        _ingest(space, _document(400, edited=True))  # edited passages and 10 fewer: retired across the parts
    finally:
        os.killpg(sliced.pid, signal.SIGTERM)
        sliced.wait(timeout=60)
    unsliced = start_worker("whole-write", ENGRAM_WORKER_STAGE_SLICE_S="3600")
    try:
        _ingest(whole, _document(400, edited=True))
    finally:
        os.killpg(unsliced.pid, signal.SIGTERM)
        unsliced.wait(timeout=60)
    try:
        mine, reference = graph_signature(driver, space), graph_signature(driver, whole)
        assert mine["labels"] == reference["labels"] and mine["relationships"] == reference["relationships"]
        assert mine == reference
        texts = [n["what"] for n in mine["nodes"]]
        assert any("kayak 7" in t for t in texts) and not any("crate 7 " in t for t in texts)
        assert not any("crate 450" in t for t in texts)  # the passages past the shortened end are gone
    finally:
        get_driver().execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=whole)
