"""The aggregation path's effect on LoCoMo recall, on conversations already ingested by bench.locomo_recall: each
question recalled with the path on (the default) and off in the same run. A question whose form asks no count or
sum never takes the path, so its ranking must be the same both ways (counted: `identical`); for those that do, turn
R@10 on and off. Latency p50 / p95 of both for the questions that do not take the path (noisy: 2 shared cores).

    ~/.cache/engram/venv/bin/python -m bench.aggregate_locomo --samples conv-26 conv-30
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench.common import LOCOMO_PATH, write_result
from bench.locomo_data import load
from bench.locomo_recall import engram_units, space_of
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.aggregate.config import AggregateConfig
from graph.aggregate.intent import aggregate_intent
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def _p(values: list[float], q: int) -> float:
    return round(1000 * statistics.quantiles(values, n=20)[q], 1) if len(values) > 1 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo recall with the aggregation path on and off")
    parser.add_argument("--samples", nargs="+", default=["conv-26", "conv-30"], help="conversations ingested")
    parser.add_argument("--name", default="aggregate_locomo")
    args = parser.parse_args()
    _, questions = load(LOCOMO_PATH)
    questions = [q for q in questions if q.sample_id in args.samples and q.evidence]
    embedder, database = get_embedder(), get_settings().neo4j.database
    engines = {
        "on": RecallEngine(get_driver(), database, embedder.encode, embedder.count_tokens),
        "off": RecallEngine(
            get_driver(), database, embedder.encode, embedder.count_tokens,
            config=RecallConfig(aggregate=AggregateConfig(enabled=False)),
        ),
    }  # fmt: skip
    took: dict[str, list[float]] = {"on": [], "off": []}
    recall10: dict[str, list[float]] = {"on": [], "off": []}
    taken: list[dict[str, Any]] = []
    identical = 0
    for question in questions:
        request = RecallRequest(space=space_of(question.sample_id), query=question.text, token_budget=32_768, limit=200)
        ranked = {}
        for name, engine in engines.items():
            started = time.perf_counter()
            result = engine.recall(request)
            seconds = time.perf_counter() - started
            ranked[name], units, _ = engram_units(result, embedder.count_tokens)
            if aggregate_intent(question.text) is None:
                took[name].append(seconds)
            else:
                recall10[name].append(turn_metrics(ranked[name], units, question.evidence)["R@10"])
        if aggregate_intent(question.text) is None:
            identical += ranked["on"] == ranked["off"]
        else:
            taken.append({"question": question.text, "R@10 off": recall10["off"][-1], "R@10 on": recall10["on"][-1]})
    results = {
        "questions": len(questions),
        "taking_the_path": len(taken),
        "other_questions_identical": f"{identical} of {len(questions) - len(taken)}",
        "path_questions_turn_R@10": {
            name: round(100 * statistics.fmean(values), 1) if values else None for name, values in recall10.items()
        },
        "path_questions": taken,
        "other_latency_ms": {name: {"p50": _p(v, 9), "p95": _p(v, 18), "n": len(v)} for name, v in took.items()},
        "command": f"python -m bench.aggregate_locomo --samples {' '.join(args.samples)}",
    }
    print(write_result(args.name, results))
    print({k: v for k, v in results.items() if k != "path_questions"})


if __name__ == "__main__":
    main()
