"""What recall steps cost in time: the defaults against the same engine with some steps' knobs turned off, in one
process, alternating which goes first question by question, on the LongMemEval development spaces already ingested
(bench/longmemeval.py), asked at each question's date by the user. The machine is shared: only the ratio of the two,
measured side by side, says something.

    ~/.cache/engram/venv/bin/python -m bench.recall_steps_latency --off unmentioned_names current_versions \
        --questions 40 --rounds 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tqdm import tqdm

from bench.abstention import ingested, lme_questions
from bench.common import write_result
from bench.longmemeval import ADDRESSEE, ASKER, space_of
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def percentiles(milliseconds: list[float]) -> dict[str, float]:
    ordered = sorted(milliseconds)
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 1),
        "p95": round(ordered[max(0, int(0.95 * len(ordered)) - 1)], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="recall latency: defaults against some steps' knobs off")
    parser.add_argument("--off", nargs="+", required=True, help="boolean RecallConfig knobs set to false")
    parser.add_argument("--questions", type=int, default=40, help="ingested questions recalled (the first N)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--name", default="recall_steps_latency", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()

    embedder, driver, database = get_embedder(), get_driver(), get_settings().neo4j.database
    off = RecallConfig.model_validate(dict.fromkeys(args.off, False))
    engines = {
        "defaults": RecallEngine(driver, database, embedder.encode, embedder.count_tokens),
        "off": RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=off),
    }
    answerable, abstaining = lme_questions(0)
    questions = ingested([*answerable, *abstaining])[: args.questions]
    times: dict[str, list[float]] = {name: [] for name in engines}
    for round_ in range(args.rounds):
        for i, question in enumerate(tqdm(questions, desc=f"round {round_ + 1}")):
            order = list(engines) if (i + round_) % 2 == 0 else list(engines)[::-1]
            for name in order:
                request = RecallRequest(
                    space=space_of(question), query=question.text, asker=ASKER, addressee=ADDRESSEE,
                    now=question.asked_at,
                )  # fmt: skip
                started = time.perf_counter()
                engines[name].recall(request)
                times[name].append(1000 * (time.perf_counter() - started))
    for engine in engines.values():
        engine.close()
    figures: dict[str, Any] = {name: percentiles(values) for name, values in times.items()}
    figures["ratio_p50"] = round(figures["defaults"]["p50"] / figures["off"]["p50"], 3)
    figures["ratio_p95"] = round(figures["defaults"]["p95"] / figures["off"]["p95"], 3)
    results = {"off": args.off, "questions": len(questions), "rounds": args.rounds, **figures}
    print(write_result(args.name, results))
    print(figures)


if __name__ == "__main__":
    main()
