"""Result-file helpers shared by the benchmarks (bench/common.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bench.common
from bench.common import last_timed_ingest


def test_a_reused_run_keeps_the_last_timed_ingestion_with_its_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench.common, "RESULTS_DIR", tmp_path)
    assert last_timed_ingest("lme", ["ingest"]) == {}  # no earlier file
    earlier = {"ingest": {"haystacks": 51, "turns_per_s": 8.8}, "measured_at": "2026-11-25T10:00:00+00:00"}
    (tmp_path / "lme.json").write_text(json.dumps(earlier))
    kept = last_timed_ingest("lme", ["ingest", "absent"])
    assert kept == {"ingest": {"haystacks": 51, "turns_per_s": 8.8}, "ingest_measured_at": "2026-11-25T10:00:00+00:00"}
    # A file that itself carried the figures forward names the run that timed them, not its own.
    carried = {**earlier, "ingest_measured_at": "2026-11-20T09:00:00+00:00", "measured_at": "2026-11-25T12:00:00+00:00"}
    (tmp_path / "lme.json").write_text(json.dumps(carried))
    assert last_timed_ingest("lme", ["ingest"])["ingest_measured_at"] == "2026-11-20T09:00:00+00:00"
    assert last_timed_ingest("lme", ["nothing"]) == {}
