"""bench/recall_first.py's arithmetic and naming: percentiles, ratios, per-step means, the fresh copies' names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench.recall_first import Timed, fresh_space, ratio, summary
from graph.recall.models import RecallRequest, RecallResult, TraceStep


def test_summary_and_ratio() -> None:
    values = [float(v) for v in range(1, 101)]
    got = summary(values)
    assert got == {"p50_ms": 50.5, "p95_ms": 95.0, "max_ms": 100.0, "n": 100}
    half = [v / 2 for v in values]
    over = got | {"latencies_ms": values}
    assert ratio(over, summary(half) | {"latencies_ms": half}) == {"p50": 2.0, "p95": 2.0, "median_of_pairs": 2.0}


class Engine:
    """Answers with a fixed trace: a step that runs twice (rank) and one named with its detail."""

    def recall(self, request: RecallRequest) -> RecallResult:
        trace = [TraceStep(step=step, detail={}, ms=ms) for step, ms in (("seed", 10.0), ("rank", 4.0),
                                                                             ("rank after context", 2.0))]  # fmt: skip
        return RecallResult(query=request.query, memory_types=[], items=[], tokens=0, hops=1, trace=trace, cypher="")


def test_timed_adds_up_a_step_that_runs_twice() -> None:
    timing = Timed()
    request = RecallRequest(space="s", query="q", now=datetime(2024, 1, 1, tzinfo=UTC))
    for _ in range(2):
        timing.recall(Engine(), request)  # type: ignore[arg-type]
    result = timing.result()
    assert result["mean_ms_per_step"] == {"rank": 6.0, "seed": 10.0}
    assert result["n"] == 2 and len(result["latencies_ms"]) == 2


@pytest.mark.parametrize(("settled", "fresh"), [("bench-lme-06db6396", "bench-fresh-lme-06db6396")])
def test_a_fresh_copy_never_takes_the_settled_space_name(settled: str, fresh: str) -> None:
    class Question:
        id = settled.removeprefix("bench-lme-")

    assert fresh_space(Question()) == fresh  # type: ignore[arg-type]
