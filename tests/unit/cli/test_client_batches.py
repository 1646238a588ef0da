"""The CLI's client side without a stack: how `engram import` cuts a file into ingest requests, how `engram export`
joins a conversation split over two pages, and how --metadata pairs are read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.cli.client_commands import merged_pages
from app.cli.client_options import parse_metadata
from app.cli.client_settings import MAX_REQUEST_BYTES
from app.cli.ingest_command import batches
from engram.formats.records import MAX_RECORDS_PER_JOB


def _doc(n: int, user: str | None, text: str = "x") -> dict[str, Any]:
    return {"type": "document", "id": f"d{n}", "text": text} | ({"user": user} if user else {})


def test_one_request_per_user_and_per_job_limit() -> None:
    records = [_doc(n, "kim" if n % 2 else None) for n in range(MAX_RECORDS_PER_JOB * 2 + 3)]
    cut = list(batches(records))
    assert all(len({r.get("user") for r in batch}) == 1 for batch in cut)
    assert all(len(batch) <= MAX_RECORDS_PER_JOB for batch in cut)
    assert sorted(r["id"] for batch in cut for r in batch) == sorted(r["id"] for r in records)  # nothing lost
    assert len(cut) == 4  # 10,002 shared and 10,001 of kim's: two requests each


def test_a_request_stays_under_the_body_limit() -> None:
    big = "y" * (MAX_REQUEST_BYTES // 3)
    cut = list(batches([_doc(n, "lee", big) for n in range(7)]))
    assert [len(batch) for batch in cut] == [2, 2, 2, 1]
    assert all(len(json.dumps(batch).encode()) < MAX_REQUEST_BYTES + 1000 for batch in cut)


def test_a_conversation_split_over_two_pages_is_one_record_again() -> None:
    first = {"type": "conversation", "id": "c1", "user": "zoe", "sessions": [{"id": "s1", "turns": []}]}
    other = {"type": "conversation", "id": "c1", "user": "max", "sessions": [{"id": "s1", "turns": []}]}
    second = {**first, "sessions": [{"id": "s2", "turns": []}]}
    pages = [json.dumps(first) + "\n" + json.dumps(other) + "\n", json.dumps(second) + "\n" + json.dumps(_doc(1, None))]
    lines = [json.loads(line) for line in merged_pages(pages).splitlines()]
    assert [(r["id"], r.get("user")) for r in lines] == [("c1", "zoe"), ("c1", "max"), ("d1", None)]
    assert [s["id"] for s in lines[0]["sessions"]] == ["s1", "s2"]


def test_metadata_pairs_are_typed() -> None:
    assert parse_metadata(["topic=trip", "n=3", "ok=true", "ratio=0.5", "note=a=b"]) == {
        "topic": "trip", "n": 3, "ok": True, "ratio": 0.5, "note": "a=b",
    }  # fmt: skip
    assert parse_metadata(None) is None
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_metadata(["novalue"])
