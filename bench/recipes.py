"""The named recall recipes (graph/recall/config.py RECIPES) side by side: quality and cost on the LoCoMo conversations
already ingested in full (bench.locomo_recall's spaces), each question asked with every recipe in turn (the order
rotated per question), latency as a ratio to `default` in the same run. Needs the stack's Neo4j. Writes
bench/results/recipes.json; the table is in docs/tuning.md ("Recall recipes").

    ~/.cache/engram/venv/bin/python -m bench.recipes --questions 60
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tqdm import tqdm

from bench.common import LOCOMO_PATH, write_result
from bench.locomo_data import Question, load
from bench.locomo_recall import aggregate, engram_units, space_of
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.config import RECIPES
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def complete_samples(turns: dict[str, list[Any]]) -> list[str]:
    driver = get_driver()

    def episodes(sample: str) -> int:
        records, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space_of(sample))
        return int(records[0]["n"])

    return [sample for sample in turns if episodes(sample) == len(turns[sample])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=60, help="questions spread over the ingested conversations")
    args = parser.parse_args()
    turns, questions = load(LOCOMO_PATH)
    samples = complete_samples(turns)
    chosen = [q for q in questions if q.sample_id in samples]
    step = max(1, len(chosen) // args.questions) if chosen else 1
    asked: list[Question] = chosen[::step][: args.questions]
    if not asked:
        raise SystemExit("no LoCoMo conversation is ingested in full: run bench.locomo_recall first")
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    names = list(RECIPES)
    scored: dict[str, list[tuple[Question, dict[str, float]]]] = {name: [] for name in names}
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for index, question in enumerate(tqdm(asked, desc="questions", unit="q")):
        for name in names[index % len(names) :] + names[: index % len(names)]:
            request = RecallRequest(
                space=space_of(question.sample_id), query=question.text, token_budget=32_768, limit=200, recipe=name
            )
            started = time.perf_counter()
            result = engine.recall(request)
            seconds[name].append(time.perf_counter() - started)
            ranked, units, _ = engram_units(result, embedder.count_tokens)
            scored[name].append((question, turn_metrics(ranked, units, question.evidence)))
    engine.close()
    base = statistics.median(seconds["default"])
    results: dict[str, Any] = {
        name: {
            "all-no-adv": aggregate(scored[name])["all-no-adv"],
            "latency_ratio_to_default": round(statistics.median(seconds[name]) / base, 2),
            "p50_ms": round(1000 * statistics.median(seconds[name]), 1),
        }
        for name in names
    }
    results["questions"] = len(asked)
    results["conversations"] = samples
    print(write_result("recipes", results))
    for name in names:
        row = results[name]["all-no-adv"]
        print(
            f"{name:10s} R@5 {row['R@5']:5.1f} R@10 {row['R@10']:5.1f} R@25 {row['R@25']:5.1f} "
            f"R@1024tok {row['R@1024tok']:5.1f} latency x{results[name]['latency_ratio_to_default']}"
        )


if __name__ == "__main__":
    main()
