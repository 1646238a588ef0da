"""Exact against approximate concept search on the ingested LongMemEval spaces: how recall's figures and latency
change when every space of up to `--exact` concepts is scanned exactly (`search.exact_scan_max`) instead of only
those up to the default (5,000), above which the shared approximate concept index answers and its answer moves with
what other spaces write. Same process, the two settings alternating per question; needs the spaces ingested
(`bench.longmemeval`).

    ~/.cache/engram/venv/bin/python -m bench.concept_scan [--exact 20000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.abstention import ingested
from bench.common import write_result
from bench.locomo_recall import engram_units
from bench.longmemeval import DATA, metrics, request_of
from bench.longmemeval_data import load
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.config import RecallConfig, SearchLimits
from graph.recall.engine import RecallEngine

SHOWN = ("turnR@10", "sessAll@10", "turnAll@25")


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


def main() -> None:
    parser = argparse.ArgumentParser(
        description="exact vs approximate concept search on the ingested LongMemEval spaces"
    )
    parser.add_argument("--exact", type=int, default=20_000, help="exact_scan_max of the exact setting")
    parser.add_argument("--rounds", type=int, default=2, help="timed rounds over the questions")
    args = parser.parse_args()
    embedder, driver = get_embedder(), get_driver()
    database = get_settings().neo4j.database
    settings = {"default": SearchLimits(), "exact": SearchLimits(exact_scan_max=args.exact)}
    engines = {
        name: RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=RecallConfig(search=limits))
        for name, limits in settings.items()
    }

    questions = ingested([q for q in load(DATA) if not q.abstention])
    figures: dict[str, dict[str, dict[str, float]]] = {name: {} for name in engines}
    seconds: dict[str, list[float]] = {name: [] for name in engines}
    for round_ in range(args.rounds):
        for i, question in enumerate(questions):
            request = request_of(question)
            order = list(engines) if (i + round_) % 2 == 0 else list(reversed(engines))
            for name in order:
                started = time.perf_counter()
                result = engines[name].recall(request)
                seconds[name].append(time.perf_counter() - started)
                ranked, units, _ = engram_units(result, embedder.count_tokens)
                figures[name][question.id] = metrics(question, ranked, units)
    by_type: dict[str, dict[str, dict[str, float]]] = {}
    for name, per_question in figures.items():
        for question in questions:
            for group in ("all", question.type):
                row = by_type.setdefault(group, {}).setdefault(name, {"n": 0.0, **dict.fromkeys(SHOWN, 0.0)})
                row["n"] += 1
                for metric in SHOWN:
                    row[metric] += per_question[question.id][metric]
    for rows in by_type.values():
        for row in rows.values():
            for metric in SHOWN:
                row[metric] = round(100 * row[metric] / row["n"], 1)
    moved = {
        q.id: {name: {m: figures[name][q.id][m] for m in SHOWN} for name in engines}
        for q in questions
        if any(figures["default"][q.id][m] != figures["exact"][q.id][m] for m in SHOWN)
    }
    latency = {
        name: {"p50_ms": round(1000 * statistics.median(s), 1), "p95_ms": round(1000 * _p95(s), 1), "recalls": len(s)}
        for name, s in seconds.items()
    }
    ratio = {
        "p50": round(latency["exact"]["p50_ms"] / latency["default"]["p50_ms"], 2),
        "p95": round(latency["exact"]["p95_ms"] / latency["default"]["p95_ms"], 2),
    }
    write_result(
        "concept_scan",
        {
            "settings": {name: limits.model_dump() for name, limits in settings.items()},
            "questions": len(questions),
            "by_type": by_type,
            "moved": moved,
            "latency": latency,
            "latency_exact_over_default": ratio,
            "note": "one process, loopback Neo4j, the two settings alternating per question; the machine is shared",
        },
    )
    print(
        f"{len(questions)} questions, {len(moved)} moved; latency exact/default p50 {ratio['p50']} p95 {ratio['p95']}"
    )
    for group, rows in sorted(by_type.items()):
        print(group, {name: {m: row[m] for m in SHOWN} for name, row in rows.items()})


if __name__ == "__main__":
    main()
