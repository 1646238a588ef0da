"""Waiting for a freshly loaded vector index to settle before measuring recall on it.

Right after a bulk load a Lucene vector index is spread over many segments, each searched on its own, and its
queries run several times slower (1M: bare vector query p95 50 ms right after the load, 13 ms settled) until the
segments are merged in the background. Latency measured in that window says little about the steady state, so the
benchmark probes the bare vector query until its p95 stops falling and says whether it did.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import neo4j


@dataclass
class Settling:
    settled: bool = False
    waited_s: float = 0.0
    probe_p95_ms: list[float] = field(default_factory=list)  # one per probe round, in order


def wait_until_settled(
    probe_p95_ms: Callable[[], float],
    *,
    tolerance: float = 0.15,
    interval_s: float = 60.0,
    max_wait_s: float = 1800.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Settling:
    """Probes until a round's p95 is no longer `tolerance` below the best of the rounds before it (the index stopped
    getting faster; a noisy slower round counts as stopped too) or `max_wait_s` has passed; `interval_s` between
    rounds leaves the background merges time to run."""
    started = clock()
    result = Settling(probe_p95_ms=[probe_p95_ms()])
    while clock() - started < max_wait_s:
        sleep(interval_s)
        best = min(result.probe_p95_ms)
        result.probe_p95_ms.append(probe_p95_ms())
        if result.probe_p95_ms[-1] >= (1 - tolerance) * best:
            result.settled = True
            break
    result.waited_s = round(clock() - started, 1)
    return result


def wait_for_online_indexes(driver: neo4j.Driver, database: str, timeout_s: float = 3600.0) -> None:
    """Blocks until every index is ONLINE and fully populated (a just-created index is still being built)."""
    deadline = time.monotonic() + timeout_s
    while True:
        records, _, _ = driver.execute_query(
            "SHOW INDEXES YIELD state, populationPercent WHERE state <> 'ONLINE' OR populationPercent < 100 "
            "RETURN count(*) AS pending",
            database_=database,
        )
        if records[0]["pending"] == 0:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{records[0]['pending']} indexes still populating after {timeout_s:.0f} s")
        time.sleep(5)
