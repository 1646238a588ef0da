"""Fairness between tenants in the worker queue: one tenant floods, eight others submit small jobs.

Three phases, in one run, on the stack's Neo4j and a Redis database of the bench's own (`--redis-db`, flushed at the
start: its queues hold the bench's jobs only, not those of whoever else uses the stack) served by a worker the bench
starts (`--concurrency` pool processes, the stack's default):
  1. idle: the eight small tenants alone, each submitting `--small-jobs` small conversations on a fixed schedule;
  2. flood alone: the flooding tenant's `--flood-jobs` large documents and `--flood-small-jobs` small conversations
     (all submitted at once), nobody else;
  3. competition: the same flood, and 2 s later the small tenants' same schedule.
Per small job: queue wait (time not running: before and between its stages) and end-to-end time (created to
finished, both stamped by the job store on one clock), p50/p95 per phase, and how many of phase 3's ended while the
flood still ran (a flood that ends early compares little). The flood's throughput is its payload bytes
over the time from its first submission to its last job's end. Jobs go in through `submit_ingest`, the API's path.

    python -m bench.fairness [--small-jobs 4] [--flood-jobs 6] [--flood-kb 48] [--redis-db 11]

With `--rounds N` the three phases run N times, in alternating order (idle, alone, competing; then the reverse), and
each figure pools every round's jobs: on a machine shared with other work, whose load drifts, one round compares
whatever else ran in each phase.

Writes bench/results/fairness.json (`small_p95_ratio`: p95 end-to-end under the flood / idle;
`flood_throughput_ratio`: the flood's throughput under competition / alone; each round's figures with the load
average during each phase).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import git_commit, write_result
from engram.formats.loading import validate_records
from engram.settings import PROJECT_ROOT, get_settings
from graph.driver import get_driver
from workers.jobs import JobState, JobStatus
from workers.resources import get_job_store, get_redis
from workers.tasks.ingest import submit_ingest

SMALL_TENANTS = 8
WORDS = [
    "harbor",
    "lantern",
    "meadow",
    "copper",
    "violin",
    "glacier",
    "orchard",
    "canyon",
    "ember",
    "falcon",
    "willow",
    "quartz",
    "saddle",
    "pepper",
    "thunder",
    "marble",
    "cedar",
    "velvet",
    "prairie",
    "comet",
    "basil",
    "anchor",
    "tundra",
    "cobalt",
    "maple",
    "ribbon",
    "summit",
    "parcel",
]


def _small_payload(tenant: int, n: int) -> list[dict[str, Any]]:
    turns = [
        {"speaker": ["Ann", "Bob"][t % 2], "id": f"D{n}:{t}",
         "text": f"I visited the {WORDS[(tenant + n + t) % len(WORDS)]} market number {n}-{t} with my cousin."}
        for t in range(6)
    ]  # fmt: skip
    return [{"type": "conversation", "id": f"small-{n}", "sessions": [{"id": "s1", "turns": turns}]}]


def _flood_payload(n: int, kb: int) -> list[dict[str, Any]]:
    rng = random.Random(n)
    sentences: list[str] = []
    size = 0
    while size < kb * 1000:
        words = rng.sample(WORDS, 6)
        sentence = f"The {words[0]} team moved the {words[1]} {words[2]} to the {words[3]} {words[4]} by {words[5]}."
        sentences.append(sentence)
        size += len(sentence) + 1
    paragraphs = [" ".join(sentences[i : i + 8]) for i in range(0, len(sentences), 8)]
    return [{"type": "document", "id": f"flood-{n}", "text": "\n\n".join(paragraphs)}]


def _wait(job_ids: list[str], timeout_s: float = 1800) -> list[JobStatus]:
    store = get_job_store()
    deadline = time.monotonic() + timeout_s
    done: dict[str, JobStatus] = {}
    while len(done) < len(job_ids):
        for job_id in job_ids:
            if job_id not in done and (status := store.status(job_id)).state in (JobState.SUCCEEDED, JobState.FAILED):
                if status.state is JobState.FAILED:
                    raise RuntimeError(f"job {job_id} failed: {status.error}")
                done[job_id] = status
        if time.monotonic() > deadline:
            raise TimeoutError(f"{len(job_ids) - len(done)} jobs not finished after {timeout_s} s")
        time.sleep(0.25)
    return [done[j] for j in job_ids]


def _times(status: JobStatus) -> tuple[float, float]:
    """(end-to-end, queue wait) seconds of a finished job."""
    e2e = (datetime.fromisoformat(status.finished_at) - datetime.fromisoformat(status.created_at)).total_seconds()
    return e2e, max(0.0, e2e - sum(status.stage_seconds.values()))


def _small_tenants(run: str, jobs: int, interval_s: float) -> list[JobStatus]:
    """Each small tenant submits `jobs` jobs, one every `interval_s` (starts staggered), without waiting."""
    submitted: list[str] = []
    lock = threading.Lock()

    def tenant(t: int) -> None:
        time.sleep(t * interval_s / SMALL_TENANTS)
        for n in range(jobs):
            job_id = submit_ingest(f"bench-fair-{run}-small{t}", validate_records(_small_payload(t, n)))
            with lock:
                submitted.append(job_id)
            time.sleep(interval_s)

    threads = [threading.Thread(target=tenant, args=(t,)) for t in range(SMALL_TENANTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return _wait(submitted)


def _flood(run: str, jobs: int, kb: int, small_jobs: int) -> tuple[list[str], float, int]:
    """The flooding tenant's large documents and its many small jobs, all submitted at once."""
    payloads = [_flood_payload(n, kb) for n in range(jobs)]
    payloads += [_small_payload(SMALL_TENANTS, 1000 + n) for n in range(small_jobs)]
    size = sum(len(str(p)) for p in payloads)
    started = time.time()
    ids = [submit_ingest(f"bench-fair-{run}-flood", validate_records(p)) for p in payloads]
    return ids, started, size


def _flood_throughput(ids: list[str], started: float, size: int) -> dict[str, float]:
    statuses = _wait(ids)
    last = max(datetime.fromisoformat(s.finished_at).timestamp() for s in statuses)
    return {"seconds": round(last - started, 2), "bytes_per_s": round(size / (last - started), 1), "ended": last}


def _during(statuses: list[JobStatus], until: float) -> int:
    """Small jobs that ended before the flood did: those the comparison is about."""
    return sum(datetime.fromisoformat(s.finished_at).timestamp() <= until for s in statuses)


def _pooled_rate(runs: list[dict[str, float]]) -> float:
    """Bytes per second over every run of a phase: total bytes over total seconds."""
    return round(sum(r["bytes_per_s"] * r["seconds"] for r in runs) / sum(r["seconds"] for r in runs), 1)


def _summary(statuses: list[JobStatus]) -> dict[str, float]:
    e2e, wait = np.array([_times(s) for s in statuses]).T
    return {
        "jobs": len(statuses),
        "e2e_p50_s": round(float(np.percentile(e2e, 50)), 2),
        "e2e_p95_s": round(float(np.percentile(e2e, 95)), 2),
        "wait_p50_s": round(float(np.percentile(wait, 50)), 2),
        "wait_p95_s": round(float(np.percentile(wait, 95)), 2),
    }


def _drop_spaces(spaces: list[str]) -> None:
    with get_driver().session(database=get_settings().neo4j.database) as session:
        for space in spaces:
            session.run(
                "MATCH (n) WHERE n.space = $space CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                space=space,
            ).consume()


def _start_worker(concurrency: int) -> subprocess.Popen[bytes]:
    celery = str(Path(sys.executable).parent / "celery")
    worker = subprocess.Popen(
        [celery, "-A", "workers.celery_app:app", "worker", "-Q", "cpu,gpu", "-c", str(concurrency),
         "--hostname", f"bench-fairness-{os.getpid()}@%h", "--loglevel", "WARNING"],
        cwd=PROJECT_ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    # Up once it has taken and finished a job (its pool processes have loaded the model).
    _wait([submit_ingest("bench-fair-warmup", validate_records(_small_payload(0, 0)))], timeout_s=300)
    return worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small-jobs", type=int, default=4, help="jobs per small tenant and phase")
    parser.add_argument("--interval-s", type=float, default=6.0, help="seconds between a small tenant's jobs")
    parser.add_argument("--flood-jobs", type=int, default=6)
    parser.add_argument("--flood-kb", type=int, default=48, help="size of each flood document, in KB")
    parser.add_argument("--flood-small-jobs", type=int, default=0, help="small jobs the flood also submits at once")
    parser.add_argument("--label", default="", help="a note stored with the result (e.g. before/after)")
    parser.add_argument("--output", default="fairness")
    parser.add_argument("--concurrency", type=int, default=get_settings().worker.concurrency)
    parser.add_argument("--redis-db", type=int, default=11, help="the bench's own Redis database (flushed)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the three phases, pooled (order alternates)")
    args = parser.parse_args()
    url = get_settings().redis.url.rsplit("/", 1)[0] + f"/{args.redis_db}"
    if get_settings().redis.url != url:  # settings are read at import: run again with the bench's database
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], dict(os.environ, REDIS_URL=url))
    get_redis().flushdb()
    run = uuid.uuid4().hex[:6]
    worker = _start_worker(args.concurrency)
    idle: list[JobStatus] = []
    loaded: list[JobStatus] = []
    alone: list[dict[str, float]] = []
    competing: list[dict[str, float]] = []
    rounds: list[dict[str, Any]] = []
    spaces = ["bench-fair-warmup"]
    try:
        for number in range(args.rounds):
            tag = f"{run}r{number}"
            spaces += [f"bench-fair-{tag}{p}-small{t}" for p in "ic" for t in range(SMALL_TENANTS)]
            spaces += [f"bench-fair-{tag}a-flood", f"bench-fair-{tag}c-flood"]
            figures: dict[str, Any] = {}
            # Rounds alternate the order of the phases: a machine whose other load drifts favours neither side.
            order = ["idle", "alone", "competing"]
            for phase in order if number % 2 == 0 else order[::-1]:
                print(f"round {number + 1}, {phase}", flush=True)
                load_before = os.getloadavg()[0]
                if phase == "idle":
                    small = _small_tenants(f"{tag}i", args.small_jobs, args.interval_s)
                    idle += small
                    figures[phase] = _summary(small)
                elif phase == "alone":
                    throughput = _flood_throughput(
                        *_flood(f"{tag}a", args.flood_jobs, args.flood_kb, args.flood_small_jobs)
                    )
                    throughput.pop("ended")
                    alone.append(throughput)
                    figures[phase] = throughput
                else:
                    flood = _flood(f"{tag}c", args.flood_jobs, args.flood_kb, args.flood_small_jobs)
                    time.sleep(2)
                    small = _small_tenants(f"{tag}c", args.small_jobs, args.interval_s)
                    loaded += small
                    throughput = _flood_throughput(*flood)
                    competing.append(throughput)
                    figures[phase] = {**_summary(small), "ended_during_flood": _during(small, throughput.pop("ended"))}
                    figures["flood_competing"] = throughput
                figures[phase]["load_average"] = round((load_before + os.getloadavg()[0]) / 2, 1)
                print(figures[phase], flush=True)
            rounds.append(figures)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        _drop_spaces(spaces)
    idle_summary, loaded_summary = _summary(idle), _summary(loaded)
    alone_rate, competing_rate = _pooled_rate(alone), _pooled_rate(competing)
    result = {
        "label": args.label,
        "git_commit": git_commit(),
        "settings": vars(args) | {"small_tenants": SMALL_TENANTS},
        "small_idle": idle_summary,
        "small_under_flood": loaded_summary
        | {"ended_during_flood": sum(r["competing"]["ended_during_flood"] for r in rounds)},
        "flood_alone_bytes_per_s": alone_rate,
        "flood_competing_bytes_per_s": competing_rate,
        "small_p95_ratio": round(loaded_summary["e2e_p95_s"] / idle_summary["e2e_p95_s"], 2),
        "small_p50_ratio": round(loaded_summary["e2e_p50_s"] / idle_summary["e2e_p50_s"], 2),
        "small_wait_p95_s_idle_and_under_flood": [idle_summary["wait_p95_s"], loaded_summary["wait_p95_s"]],
        "flood_throughput_ratio": round(competing_rate / alone_rate, 2),
        "rounds": rounds,
    }
    print({k: result[k] for k in ("small_p95_ratio", "small_p50_ratio", "flood_throughput_ratio")})
    print(write_result(args.output, result))


if __name__ == "__main__":
    main()
