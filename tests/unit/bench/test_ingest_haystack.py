"""bench/ingest_haystack.py's summary: medians over the haystacks done so far, backends against torch."""

from __future__ import annotations

from typing import Any

from bench.ingest_haystack import GOAL_S, summary


def row(worker: float, **in_process: float) -> dict[str, Any]:
    return {"worker": {"seconds": worker}, "in_process": {n: {"seconds": s} for n, s in in_process.items()}}


def test_medians_over_haystacks_and_speedups_against_torch() -> None:
    rows = [
        row(50.0, torch=40.0, onnx_fp32=20.0),
        row(30.0, torch=60.0, onnx_fp32=30.0),
        row(90.0, torch=50.0, onnx_fp32=10.0),
    ]
    result = summary(rows, ["torch", "onnx_fp32"])
    assert result["worker_seconds_median"] == 50.0 and result["goal_worker_s"] == GOAL_S
    assert result["in_process_seconds_median"] == {"torch": 50.0, "onnx_fp32": 20.0}
    assert result["in_process_speedup_vs_torch"] == {"torch": 1.0, "onnx_fp32": 2.5}
    assert result["haystacks"] == rows


def test_without_torch_the_first_backend_is_the_reference() -> None:
    result = summary([row(10.0, a=4.0, b=2.0)], ["a", "b"])
    assert result["in_process_speedup_vs_a"] == {"a": 1.0, "b": 2.0}
