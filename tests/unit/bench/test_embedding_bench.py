"""bench/embedding.py: the interleaved timing (every configuration encodes every timed text once per round, chunk by
chunk, the configuration that goes first changing from chunk to chunk) and the agreement a --timing-only run keeps."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from numpy.typing import NDArray

import bench.embedding
from bench.embedding import earlier_agreement, interleaved_rounds


class Recorder:
    def __init__(self, name: str, calls: list[tuple[str, tuple[str, ...]]]) -> None:
        self.name, self.calls = name, calls

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append((self.name, tuple(texts)))
        return np.zeros((len(texts), 384), np.float32)


def test_each_configuration_sees_every_text_once_per_round_and_the_first_turn_rotates() -> None:
    calls: list[tuple[str, tuple[str, ...]]] = []
    models: dict[tuple[str, int], Any] = {("a", 1): Recorder("a", calls), ("b", 2): Recorder("b", calls)}
    texts = [f"t{i}" for i in range(5)]
    runs = interleaved_rounds(cast(Any, models), texts, rounds=2, chunk=2)
    assert {key: len(seconds) for key, seconds in runs.items()} == {("a", 1): 2, ("b", 2): 2}
    assert all(s >= 0 for seconds in runs.values() for s in seconds)
    for name in ("a", "b"):
        seen = [t for who, part in calls if who == name for t in part]
        assert seen == texts * 2  # in order, each round whole
    # 3 chunks a round, 2 configurations each: the configuration first on a chunk alternates
    firsts = [calls[i][0] for i in range(0, len(calls), 2)]
    assert firsts == ["a", "b", "a", "b", "a", "b"]
    # both configurations run on the same chunk before the next chunk starts
    assert all(calls[i][1] == calls[i + 1][1] for i in range(0, len(calls), 2))


def test_a_timing_only_run_keeps_the_agreement_of_the_run_that_measured_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench.embedding, "RESULTS_DIR", tmp_path)
    assert earlier_agreement("emb", ["torch", "onnx-fp32"]) == {}  # no file
    measured = {
        "agreement_with_torch": {"onnx-fp32": {"cosine_min": 1.0}},
        "texts": 10_000,
        "throughput": [{"backend": "torch"}],
        "commit": "abc",
        "measured_at": "2026-11-26T10:00:00+00:00",
    }
    (tmp_path / "emb.json").write_text(json.dumps(measured))
    kept = earlier_agreement("emb", ["torch", "onnx-fp32"])
    assert kept["agreement_with_torch"] == {"onnx-fp32": {"cosine_min": 1.0}} and kept["texts"] == 10_000
    assert "throughput" not in kept  # timings are this run's
    assert (kept["agreement_commit"], kept["agreement_measured_at"]) == ("abc", "2026-11-26T10:00:00+00:00")
    assert earlier_agreement("emb", ["torch", "onnx-int8"]) == {}  # a backend it never measured
    # carried again, it still names the run that measured it
    (tmp_path / "emb.json").write_text(json.dumps({**measured, **kept, "commit": "def"}))
    assert earlier_agreement("emb", ["onnx-fp32"])["agreement_commit"] == "abc"
