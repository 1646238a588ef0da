"""Recall from the first query: on a space ingested a moment ago, and right after a restart (issue 48).

`python -m bench.recall_latency --mode fresh` ingests LongMemEval haystacks through the worker into spaces of
their own (`bench-fresh-lme-*`, deleted first) and, as soon as each job reports done, recalls from it: the haystack's
question and the other chosen questions (every one a real question put to a ~490-turn conversation), each
followed at once by the same request to the settled copy of that haystack (`bench-lme-*`, ingested earlier by
bench.longmemeval): the same data, so the ratio is what freshness costs.

`--mode restart` measures what a restart costs recall: the first recalls of a new engine (its own driver,
connections and threads) after Neo4j's plan cache was emptied (`db.clearQueryCaches()`: what a Neo4j restart
empties; its page cache and JIT are not emulated), with and without the warm-up the API runs before it says ready
(graph/recall/warm.py), against the same recalls on a warm engine before and after.

Both include embedding the question. Needs the stack running and the settled spaces (`python -m bench.longmemeval
--per-type 4`). Writes bench/results/recall_latency_fresh.json / recall_latency_restart.json.

    ~/.cache/engram/venv/bin/python -m bench.recall_latency --mode fresh --spaces 4 --queries 8
    ~/.cache/engram/venv/bin/python -m bench.recall_latency --mode restart --queries 16
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import neo4j
import numpy as np

from bench.common import git_commit, machine, write_result
from bench.longmemeval import DATA, request_of, select, space_of
from bench.longmemeval_data import LmeQuestion, load
from engram.embedding import Embedder, get_embedder
from engram.formats.loading import validate_records
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import create_driver, get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.jobs import wait_for_job
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest


def fresh_space(question: LmeQuestion) -> str:
    return space_of(question).replace("bench-lme-", "bench-fresh-lme-", 1)


def summary(latencies: Sequence[float]) -> dict[str, float]:
    values = np.asarray(latencies)
    return {
        "p50_ms": round(float(np.percentile(values, 50)), 1),
        "p95_ms": round(float(np.percentile(values, 95)), 1),
        "max_ms": round(float(values.max()), 1),
        "n": len(latencies),
    }


def ratio(over: dict[str, Any], under: dict[str, Any]) -> dict[str, float]:
    """p50 and p95 over against under, and the median of the pairs' own ratios (each pair a moment apart: the
    steadiest figure while the load of a shared machine drifts)."""
    pairs = [a / b for a, b in zip(over["latencies_ms"], under["latencies_ms"], strict=True)]
    ratios = {q: round(over[f"{q}_ms"] / under[f"{q}_ms"], 2) for q in ("p50", "p95")}
    return ratios | {"median_of_pairs": round(float(np.median(pairs)), 2)}


class Timed:
    """Recalls timed end to end (embedding included) with the mean time of each step."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.steps: dict[str, list[float]] = defaultdict(list)

    def recall(self, engine: RecallEngine, req: RecallRequest) -> None:
        started = time.perf_counter()
        result = engine.recall(req)
        self.latencies.append(1000 * (time.perf_counter() - started))
        per_step: dict[str, float] = defaultdict(float)
        for step in result.trace:
            per_step[step.step.split(" after")[0].split(" ")[0]] += step.ms
        for name, ms in per_step.items():
            self.steps[name].append(ms)

    def result(self) -> dict[str, Any]:
        count = len(self.latencies)
        means = {name: round(sum(ms) / count, 1) for name, ms in sorted(self.steps.items())}
        latencies = [round(ms, 1) for ms in self.latencies]
        return summary(self.latencies) | {"mean_ms_per_step": means, "latencies_ms": latencies}


def settled_questions(driver: neo4j.Driver, per_type: int) -> list[LmeQuestion]:
    """The development questions whose settled space holds every turn of the haystack."""
    found = []
    for question in select(load(DATA), [], per_type):
        records, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space_of(question))
        if records[0]["n"] == len(question.turns):
            found.append(question)
    return found


def new_engine(embedder: Embedder) -> tuple[neo4j.Driver, RecallEngine]:
    """What a restarted API process holds: its own driver (no connection open yet) and engine (no thread started)."""
    settings = get_settings()
    driver = create_driver(settings.neo4j)
    engine = RecallEngine(
        driver, settings.neo4j.database, embedder.encode, embedder.count_tokens, config=RecallConfig(),
        read_timeout_s=settings.neo4j.read_timeout_s,
    )  # fmt: skip
    return driver, engine


def run_fresh(spaces: int, queries: int, per_type: int, save: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """`save` gets the result so far after each space (an ingestion on a busy machine takes many minutes)."""
    driver, database, embedder = get_driver(), get_settings().neo4j.database, get_embedder()
    questions = settled_questions(driver, per_type)
    if len(questions) < max(spaces, queries):
        raise SystemExit(f"{len(questions)} settled LongMemEval spaces; run bench.longmemeval --per-type 4 first")
    # Spread over the question types (select() orders them by type).
    step = len(questions) / spaces
    haystacks = [questions[int((i + 0.5) * step)] for i in range(spaces)]
    engine = RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=RecallConfig())
    warm = engine.warm()  # as the API does before it says ready
    settle_heap()
    fresh, settled = Timed(), Timed()
    first_fresh: list[float] = []
    ingests: list[float] = []
    for haystack in haystacks:
        space = fresh_space(haystack)
        delete_space(driver, database, space)
        started = time.perf_counter()
        status = wait_for_job(get_job_store(), submit_ingest(space, validate_records([haystack.record()])), 3600)
        if status.error:
            raise RuntimeError(f"{haystack.id}: {status.error}")
        ingests.append(time.perf_counter() - started)
        # Its own question first, then the others: each on the fresh space, then at once on its settled copy.
        asked = [haystack, *[q for q in questions if q is not haystack][: queries - 1]]
        for number, question in enumerate(asked):
            fresh.recall(engine, request_of(question, space))
            if number == 0:
                first_fresh.append(fresh.latencies[-1])
            settled.recall(engine, request_of(question, space_of(haystack)))
        print(f"{space}: ingested in {ingests[-1]:.0f} s; fresh {summary(fresh.latencies[-len(asked) :])}")
        result = {
            "fresh": fresh.result(),
            "settled": settled.result(),
            "first_recall_on_fresh_space": summary(first_fresh),
            "ratio_fresh_to_settled": ratio(fresh.result(), settled.result()),
            "haystacks": [q.id for q in haystacks[: len(ingests)]],
            "queries_per_space": queries,
            "ingest_s": [round(s, 1) for s in ingests],
            "warm_up": vars(warm),
        }
        save(result)
        delete_space(driver, database, space)
    engine.close()
    return result


def run_restart(queries: int, per_type: int) -> dict[str, Any]:
    """Each restarted engine's first recalls, each followed at once by the same recall on a warm engine (the load
    of a shared machine drifts: the ratio compares recalls a moment apart)."""
    driver, embedder = get_driver(), get_embedder()
    questions = settled_questions(driver, per_type)[:queries]
    asked = [request_of(q) for q in questions]
    _, warm_engine = new_engine(embedder)
    warm_engine.warm()
    for req in asked:  # the warm engine has seen these recalls: plans, connections, pages
        warm_engine.recall(req)
    settle_heap()
    results: dict[str, Any] = {}
    for name, warm in (("restart_cold", False), ("restart_warmed", True)):
        # What a Neo4j restart empties (its page cache and JIT stay warm here: not emulated).
        print(driver.execute_query("CALL db.clearQueryCaches()")[0][0][0])
        restarted_driver, engine = new_engine(embedder)
        started = time.perf_counter()
        report = engine.warm() if warm else None
        if report is not None:  # what readiness waits for
            results[f"{name}_warm_up"] = vars(report) | {
                "seconds_with_embedding": round(time.perf_counter() - started, 1)
            }
        restarted, baseline = Timed(), Timed()
        for req in asked:
            restarted.recall(engine, req)
            baseline.recall(warm_engine, req)
        results[name], results[f"warm_beside_{name}"] = restarted.result(), baseline.result()
        results[f"ratio_{name}_to_warm"] = ratio(restarted.result(), baseline.result())
        print(name, summary(restarted.latencies), "warm beside it", summary(baseline.latencies))
        engine.close()
        restarted_driver.close()
    warm_engine.close()
    results["spaces"] = [space_of(q) for q in questions]
    return results


def main(argv: Sequence[str], mode: str) -> None:
    parser = argparse.ArgumentParser(prog=f"bench.recall_latency --mode {mode}")
    parser.add_argument("--per-type", type=int, default=4, help="the LongMemEval selection (bench.longmemeval's)")
    parser.add_argument("--queries", type=int, default=8 if mode == "fresh" else 16, help="recalls per space / run")
    parser.add_argument("--spaces", type=int, default=4, help="fresh mode: haystacks ingested fresh")
    parser.add_argument("--name", default=f"recall_latency_{mode}", help="results file (bench/results/NAME.json)")
    args = parser.parse_args(argv)
    started, load_before = time.perf_counter(), os.getloadavg()

    def save(result: dict[str, Any]) -> None:
        result |= {
            "seconds": round(time.perf_counter() - started),
            "load_average_before": [round(x, 1) for x in load_before],
            "load_average_after": [round(x, 1) for x in os.getloadavg()],
            "machine": machine(),
            "commit": git_commit(),
            "command": f"python -m bench.recall_latency --mode {mode} " + " ".join(argv),
            "note": "question embedding included; shared 2-core machine: noisy, compare within the run",
        }
        print(write_result(args.name, result))
        print({k: v for k, v in result.items() if k.startswith("ratio")})

    if mode == "fresh":
        run_fresh(args.spaces, args.queries, args.per_type, save)
    else:
        save(run_restart(args.queries, args.per_type))
