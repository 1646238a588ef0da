"""Malformed input is rejected whole, with a message naming the record and field, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
import pytest

from tests.e2e.api.conftest import issue_key
from tests.support.cli import engram
from tests.support.graph_queries import label_counts


def test_cli_ingests_a_jsonl_file_and_summarises(
    driver: neo4j.Driver, space: str, tmp_path: Path, conversation: dict[str, Any], document: dict[str, Any]
) -> None:
    path = tmp_path / "memories.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (conversation, document)))
    done = engram("ingest", str(path), "--space", space, key=issue_key(driver, space))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ingested into" in done.stdout and "episodes" in done.stdout
    assert label_counts(driver, space)["Episode"] == 7


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"type": "conversation", "id": "c", "sessions": [{"id": "s", "turns": [{"speaker": "", "text": "hi"}]}]}',
         "line-record 2 (id 'c'): field 'sessions.0.turns.0.speaker'"),
        ('{"type": "document", "id": "d"', "line 2: not valid JSON"),
        ('{"type": "podcast", "id": "p"}', "line-record 2 (id 'p')"),
    ],
)  # fmt: skip
def test_cli_rejects_a_file_with_a_bad_record_and_writes_nothing(
    driver: neo4j.Driver, space: str, tmp_path: Path, document: dict[str, Any], content: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(document) + "\n" + content + "\n")
    done = engram("ingest", str(path), "--space", space)  # refused before any request: no key needed
    assert done.returncode == 2
    assert message in " ".join(done.stdout.split())
    assert label_counts(driver, space) == {}


@pytest.mark.parametrize("space_name", ["", "UPPER", "a b", "x' OR 1=1 //", "a" * 65])
def test_invalid_space_names_are_refused(space_name: str, tmp_path: Path, document: dict[str, Any]) -> None:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    done = engram("ingest", str(path), "--space", space_name)
    assert done.returncode == 2
    assert "invalid space name" in done.stdout


def test_unknown_job_id_is_a_clear_error() -> None:
    from workers.jobs import UnknownJob
    from workers.resources import get_job_store

    with pytest.raises(UnknownJob):
        get_job_store().status("0" * 32)
