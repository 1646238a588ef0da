"""Validating a large ingest payload does not stall the server's other requests (the deployed API, over HTTP)."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import neo4j

from engram.formats.records import MAX_RECORDS_PER_JOB
from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.support.graphql_client import GraphQL, operation


def test_other_requests_are_answered_while_a_large_payload_is_validated(
    settings: EngramSettings, driver: neo4j.Driver, space: str
) -> None:
    # 10,000 conversations (~2.7 MB) with one bad record at the end: validated whole, refused, nothing queued.
    turns = [{"speaker": "Ann", "text": f"Note {j}."} for j in range(5)]
    records: list[dict[str, Any]] = [
        {"type": "conversation", "id": f"c{i}", "sessions": [{"id": "s", "turns": turns}]}
        for i in range(MAX_RECORDS_PER_JOB - 1)
    ]
    records.append({"type": "conversation", "id": "bad", "sessions": []})
    base = f"http://{settings.api.host}:{settings.api.port}"
    answers: list[dict[str, Any]] = []
    with httpx.Client(base_url=base, timeout=120) as http, httpx.Client(base_url=base, timeout=120) as probe:
        client = GraphQL(http, issue_key(driver, space))
        ingest = threading.Thread(target=lambda: answers.append(client(operation("ingest"), {"records": records})))
        ingest.start()
        waits = []
        while ingest.is_alive():
            started = time.perf_counter()
            assert probe.get("/healthz").status_code == 200
            waits.append(time.perf_counter() - started)
        ingest.join()
    (answer,) = answers
    assert answer["ingest"]["__typename"] == "InvalidInput" and "conversation 'bad'" not in answer["ingest"]["message"]
    assert any("record 10000 (id 'bad')" in p for p in answer["ingest"]["problems"])
    assert len(waits) >= 3 and max(waits) < 1.0, f"a health check waited {max(waits):.2f} s behind the validation"
