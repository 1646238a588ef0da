"""A LongMemEval haystack ingested end to end, in one run: through the stack's Celery worker (one ingest job, as
bench.longmemeval sends it: seconds and where they go by stage, the rest being queueing and hand-offs between
stages) and in this process by the bulk importer (workers/bulk_import.py, the same standardize / extract / embed /
write code) once per embedding backend, so backends are compared on the same haystack in the same run (the worker
embeds with whatever backend the stack runs). Needs the stack (`make up`). Writes bench/results/ingest_longmemeval.json.

    ~/.cache/engram/venv/bin/python -m bench.ingest --longmemeval 2
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from typing import Any

from bench.common import git_commit, write_result
from bench.embedding import BACKENDS
from bench.longmemeval import DATA
from bench.longmemeval_data import LmeQuestion, load
from engram.embedding import Embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.settings import EmbeddingSettings, get_settings
from graph.admin import delete_space
from graph.concept_keys.tries import create_key_namer
from graph.driver import get_driver
from workers.bulk_import import BulkImporter
from workers.jobs import JobState, wait_for_job
from workers.resources import get_job_store, get_redis
from workers.tasks.ingest import submit_ingest

GOAL_S = 20.0  # issue 48: a haystack through the worker in under 20 s (was ~52 s)


def through_worker(space: str, question: LmeQuestion) -> dict[str, Any]:
    store = get_job_store()
    started = time.perf_counter()
    status = wait_for_job(store, submit_ingest(space, validate_records([question.record()])), timeout_s=3600)
    seconds = time.perf_counter() - started
    if status.state is not JobState.SUCCEEDED:
        raise RuntimeError(f"haystack {question.id}: job failed: {status.error}")
    stages = {stage: round(s, 3) for stage, s in status.stage_seconds.items()}
    return {
        "seconds": round(seconds, 3),
        "stage_seconds": stages,
        # Waiting in the scheduler's queue, messages between stages, polling.
        "outside_stages_s": round(seconds - sum(stages.values()), 3),
        "counts": status.counts,
    }


def in_process(space: str, question: LmeQuestion, embedder: Embedder) -> dict[str, Any]:
    importer = BulkImporter(
        get_driver(), get_settings().neo4j.database, space, create_extractor(ExtractionSettings(), create_key_namer),
        embedder.encode, get_redis(),
    )  # fmt: skip
    report = importer.run(validate_records([question.record()]))
    return {"seconds": report.seconds, "stage_seconds": report.stage_seconds, "propositions": report.propositions}


def run(haystacks: int, backends: list[str], stamp: int) -> Iterator[dict[str, Any]]:
    """One row per haystack, as each is done."""
    questions = [q for q in load(DATA) if not q.abstention][:haystacks]
    embedders = {name: Embedder(EmbeddingSettings(**BACKENDS[name])) for name in backends}
    for embedder in embedders.values():
        embedder.encode(["warm up"] * 8)
    database = get_settings().neo4j.database
    for index, question in enumerate(questions):
        row: dict[str, Any] = {
            "question": question.id,
            "turns": len(question.turns),
            "tokens": sum(embedders[backends[0]].count_tokens(t.text) for t in question.turns),
        }
        space = f"bench-ingest-lme-{stamp}-{index}"
        delete_space(get_driver(), database, space)
        row["worker"] = through_worker(space, question)
        delete_space(get_driver(), database, space)
        # Backends in turn, the first one changing from haystack to haystack (load drifts on a shared machine).
        order = backends[index % len(backends) :] + backends[: index % len(backends)]
        row["in_process"] = {}
        for name in order:
            space = f"bench-ingest-lme-{stamp}-{index}-{name}"
            delete_space(get_driver(), database, space)
            row["in_process"][name] = in_process(space, question, embedders[name])
            delete_space(get_driver(), database, space)
        print(
            f"{question.id}: {row['turns']} turns, worker {row['worker']['seconds']:.1f} s "
            f"{row['worker']['stage_seconds']}; in process "
            + ", ".join(f"{n} {r['seconds']:.1f} s" for n, r in row["in_process"].items()),
            flush=True,
        )
        yield row


def summary(rows: list[dict[str, Any]], backends: list[str]) -> dict[str, Any]:
    worker_s = [r["worker"]["seconds"] for r in rows]
    per_backend = {name: [r["in_process"][name]["seconds"] for r in rows] for name in backends}
    reference = "torch" if "torch" in backends else backends[0]
    return {
        "haystacks": rows,
        "worker_seconds_median": round(statistics.median(worker_s), 2),
        "worker_backend": f"the stack's ({get_settings().embedding.backend}/{get_settings().embedding.onnx_variant} "
        "unless the worker's environment says otherwise)",
        "goal_worker_s": GOAL_S,
        "in_process_seconds_median": {n: round(statistics.median(s), 2) for n, s in per_backend.items()},
        "in_process_speedup_vs_" + reference: {
            n: round(statistics.median(per_backend[reference]) / statistics.median(s), 2)
            for n, s in per_backend.items()
        },
        "commit": git_commit(),
    }


def main(haystacks: int, backends: list[str]) -> None:
    rows: list[dict[str, Any]] = []
    for row in run(haystacks, backends, int(time.time())):
        rows.append(row)
        # Written after every haystack: a run cut short keeps what it measured.
        result = summary(rows, backends)
        path = write_result("ingest_longmemeval", result)
    print(
        f"worker median {result['worker_seconds_median']} s (goal < {GOAL_S}); in process "
        f"{result['in_process_seconds_median']} -> {path}"
    )
