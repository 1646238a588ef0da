"""Pure arithmetic of the soak benchmark (bench/soak.py): latency percentiles per operation, time windows for the
chart, memory summaries, and the scan of an answer for other tenants' data."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of unsorted values: always one of the values, never interpolated
    (a p99 of 50 samples is the slowest one, not a blend)."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} outside 0..100")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Sample:
    """One request: when it started (seconds since the run began), which operation, how long, whether it failed."""

    at_s: float
    operation: str
    ms: float
    ok: bool


def operation_figures(samples: Iterable[Sample]) -> dict[str, dict[str, float]]:
    """count, errors and p50/p95/p99/max in ms per operation (the failed requests' times included: a timeout is
    part of what a client waits)."""
    by_operation: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_operation[sample.operation].append(sample)
    figures: dict[str, dict[str, float]] = {}
    for operation, group in sorted(by_operation.items()):
        ms = [s.ms for s in group]
        figures[operation] = {
            "count": len(group),
            "errors": sum(not s.ok for s in group),
            "p50_ms": round(percentile(ms, 50), 1),
            "p95_ms": round(percentile(ms, 95), 1),
            "p99_ms": round(percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1),
        }
    return figures


def windowed_percentile(
    samples: Iterable[Sample], window_s: float, q: float, operations: set[str] | None = None
) -> list[tuple[float, float, int]]:
    """(window middle s, percentile ms, samples) per non-empty window of `window_s`, for the chosen operations."""
    if window_s <= 0:
        raise ValueError("window_s must be positive")
    windows: dict[int, list[float]] = defaultdict(list)
    for sample in samples:
        if operations is None or sample.operation in operations:
            windows[int(sample.at_s // window_s)].append(sample.ms)
    return [((index + 0.5) * window_s, percentile(ms, q), len(ms)) for index, ms in sorted(windows.items()) if ms]


def span(values: list[float]) -> dict[str, float]:
    """start, max and end of a series sampled over time (memory in MB)."""
    if not values:
        return {"start": 0.0, "max": 0.0, "end": 0.0}
    return {"start": round(values[0], 1), "max": round(max(values), 1), "end": round(values[-1], 1)}


def strings_in(answer: Any) -> Iterator[str]:
    """Every string anywhere in a decoded JSON answer (keys excluded): texts and ids alike."""
    if isinstance(answer, str):
        yield answer
    elif isinstance(answer, dict):
        for value in answer.values():
            yield from strings_in(value)
    elif isinstance(answer, list | tuple):
        for value in answer:
            yield from strings_in(value)


def foreign_strings(answer: Any, others_codewords: Iterable[str], others_ids: set[str]) -> list[str]:
    """The strings of an answer that belong to another tenant: a text carrying another tenant's codeword, or an
    id another tenant's data has. Codewords are matched case-insensitively."""
    codewords = [c.casefold() for c in others_codewords]
    found = []
    for value in strings_in(answer):
        folded = value.casefold()
        if value in others_ids or any(c in folded for c in codewords):
            found.append(value)
    return found
