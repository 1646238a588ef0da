"""Warm recall latency on the settled LongMemEval spaces already ingested (bench/longmemeval.py), question
embedding included, for comparing two versions of recall's code on a shared machine: run it from each version's
tree in turn, alternating, and compare the runs side by side (the load moves between runs; alternate several times).

    git archive <old commit> | tar -x -C /tmp/old
    for i in 1 2; do
      PYTHONPATH=/tmp/old ~/.cache/engram/venv/bin/python /work/main/bench/recall_settled.py --label old
      ~/.cache/engram/venv/bin/python -m bench.recall_settled --label new
    done

Each run warms its engine (RecallEngine.warm, as the API does before it is ready), recalls every question once
untimed (the connections, the page cache), then `--rounds` times timed. Prints one JSON line: p50 / p95 / max / mean
ms, this process's CPU per recall (Python and the driver, every thread), the mean ms of each recall step (the
trace), and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict

from bench.abstention import ingested, lme_questions
from bench.longmemeval import ADDRESSEE, ASKER, space_of
from engram.embedding import Embedder
from engram.native_threads import limit_math_threads
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def main() -> None:
    parser = argparse.ArgumentParser(description="warm recall latency on the settled LongMemEval spaces")
    parser.add_argument("--questions", type=int, default=40, help="ingested questions recalled (the first N)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--label", default="", help="names the run in the output")
    args = parser.parse_args()
    # The engine as the API builds it (app/api/services.py): one math thread for the query's embedding and numpy's
    # BLAS (two spinning BLAS threads cost recall's diversification several ms under load).
    settings = get_settings()
    embedder = Embedder(settings.embedding.model_copy(update={"borrow_idle_cores": False}), settings.api.math_threads)
    limit_math_threads(settings.api.math_threads)
    engine = RecallEngine(get_driver(), settings.neo4j.database, embedder.encode, embedder.count_tokens)
    engine.warm()
    answerable, abstaining = lme_questions(0)
    requests = [
        RecallRequest(space=space_of(q), query=q.text, asker=ASKER, addressee=ADDRESSEE, now=q.asked_at)
        for q in ingested([*answerable, *abstaining])[: args.questions]
    ]
    for request in requests:
        engine.recall(request)
    load_before = os.getloadavg()[0]
    cpu_before = time.process_time()  # this process's CPU, every thread: far less moved by the load than wall time
    times: list[float] = []
    steps: dict[str, float] = defaultdict(float)
    for _ in range(args.rounds):
        for request in requests:
            started = time.perf_counter()
            result = engine.recall(request)
            times.append(1000 * (time.perf_counter() - started))
            for step in result.trace:
                steps[step.step] += step.ms or 0.0
    cpu_ms = 1000 * (time.process_time() - cpu_before) / len(times)
    engine.close()
    ordered = sorted(times)
    figures = {
        "label": args.label,
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 1),
        "p95": round(ordered[max(0, int(0.95 * len(ordered)) - 1)], 1),
        "max": round(ordered[-1], 1),
        "mean": round(statistics.fmean(ordered), 1),
        "python_cpu_ms": round(cpu_ms, 1),  # per recall
        "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "steps": {name: round(total / len(ordered), 1) for name, total in sorted(steps.items(), key=lambda kv: -kv[1])},
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
