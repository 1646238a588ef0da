"""Recall quality on the LoCoMo development conversations: Engram against flat baselines over raw turns.

Each conversation is ingested through the real pipeline (worker, Neo4j) into its own space; each question
recalls from its own conversation's space. Engram's ranked items become a ranked list of distinct turns
(item rank first, then the item's provenance turns); token-budget figures count the text Engram returns.
Needs the stack running (`make up`). Writes bench/results/locomo_recall.json and locomo_recall.png.

    ~/.cache/engram/venv/bin/python -m bench.locomo_recall [--reuse]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.common import LOCOMO_PATH, RESULTS_DIR, write_result
from bench.flat_baselines import FlatIndex
from bench.locomo_data import Question, Turn, load
from bench.locomo_format import locomo_records
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest, RecallResult
from workers.jobs import wait_for_job
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

SYSTEMS = ("engram", "bm25_stem", "dense", "hybrid")
CATEGORY_ORDER = ("multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "all-no-adv")


def space_of(sample_id: str) -> str:
    return f"bench-locomo-{sample_id}"


def ingest(data: Path, turns: dict[str, list[Turn]], reuse: bool) -> None:
    records = locomo_records(data.read_text())
    driver = get_driver()
    for record in tqdm(records, desc="ingest conversations", unit="conv"):
        space = space_of(record.id)
        found, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space)
        if reuse and found[0]["n"] == len(turns[record.id]):
            continue
        delete_space(driver, get_settings().neo4j.database, space)  # measure a fresh ingestion
        status = wait_for_job(get_job_store(), submit_ingest(space, [record]), timeout_s=1200)
        if status.error:
            raise RuntimeError(status.error)


def engram_units(result: RecallResult, count_tokens: Any) -> tuple[list[str], list[tuple[int, list[str]]], list[str]]:
    """(ranked distinct turns, (tokens, turns) per returned item, item-level turns of the top 10 items)."""
    ranked: list[str] = []
    units: list[tuple[int, list[str]]] = []
    for item in result.items:
        proofs = [p.external_id for p in item.provenance]
        units.append((item.tokens, proofs))
        for turn in proofs:
            if turn not in ranked:
                ranked.append(turn)
    top10_items = [p.external_id for item in result.items[:10] for p in item.provenance]
    return ranked, units, top10_items


def aggregate(per_question: list[tuple[Question, dict[str, float]]]) -> dict[str, dict[str, float]]:
    by_category: dict[str, list[dict[str, float]]] = defaultdict(list)
    for question, metrics in per_question:
        by_category[question.category].append(metrics)
        if question.category != "adversarial":
            by_category["all-no-adv"].append(metrics)
    return {
        category: {m: round(100 * statistics.fmean(q[m] for q in rows), 1) for m in rows[0]} | {"questions": len(rows)}
        for category in CATEGORY_ORDER
        if (rows := by_category.get(category))
    }


def chart(results: dict[str, dict[str, dict[str, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True)
    for ax, metric in zip(axes, ("R@10", "R@1024tok"), strict=True):
        width = 0.2
        for i, system in enumerate(SYSTEMS):
            values = [results[system].get(c, {}).get(metric, 0.0) for c in CATEGORY_ORDER]
            ax.bar([x + i * width for x in range(len(CATEGORY_ORDER))], values, width, label=system)
        ax.set_xticks([x + 1.5 * width for x in range(len(CATEGORY_ORDER))], CATEGORY_ORDER, rotation=20, fontsize=8)
        ax.set_title(f"LoCoMo dev (6 conversations): {metric}")
        ax.set_ylim(0, 100)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("evidence recall (%)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo recall benchmark")
    parser.add_argument("--data", type=Path, default=LOCOMO_PATH)
    parser.add_argument("--reuse", action="store_true", help="keep spaces already ingested with every turn")
    parser.add_argument("--hops", type=int, default=2)
    parser.add_argument("--limit-questions", type=int, default=0, help="evaluate only the first N (for a quick look)")
    args = parser.parse_args()

    turns, questions = load(args.data)
    if args.limit_questions:
        questions = questions[: args.limit_questions]
    ingest(args.data, turns, args.reuse)

    embedder = get_embedder()
    indexes: dict[str, FlatIndex] = {}
    turn_tokens: dict[str, dict[str, int]] = {}
    for sample_id, sample_turns in turns.items():
        texts = [t.text for t in sample_turns]
        indexes[sample_id] = FlatIndex([t.dia_id for t in sample_turns], texts, embedder.encode(texts))
        turn_tokens[sample_id] = {t.dia_id: embedder.count_tokens(t.text) for t in sample_turns}
    query_vectors = embedder.encode([q.text for q in questions])

    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    settle_heap()  # as the API server does once loaded (engram/runtime.py)
    per_system: dict[str, list[tuple[Question, dict[str, float]]]] = {s: [] for s in SYSTEMS}
    item_level: list[tuple[Question, dict[str, float]]] = []
    latencies: list[float] = []
    for question, vector in tqdm(list(zip(questions, query_vectors, strict=True)), desc="questions", unit="q"):
        index = indexes[question.sample_id]
        tokens = turn_tokens[question.sample_id]
        for system, ranked in (
            ("bm25_stem", index.bm25(question.text)),
            ("dense", index.dense(vector)),
            ("hybrid", index.hybrid(question.text, vector)),
        ):
            units = [(tokens[t], [t]) for t in ranked]
            per_system[system].append((question, turn_metrics(ranked, units, question.evidence)))
        started = time.perf_counter()
        result = engine.recall(
            RecallRequest(
                space=space_of(question.sample_id),
                query=question.text,
                token_budget=32_768,
                hop_limit=args.hops,
                limit=200,  # enough items to fill every token budget measured
            )
        )
        latencies.append(time.perf_counter() - started)
        ranked, units, top10 = engram_units(result, embedder.count_tokens)
        per_system["engram"].append((question, turn_metrics(ranked, units, question.evidence)))
        item_level.append(
            (question, {"R@10items": sum(e in top10 for e in question.evidence) / len(question.evidence)})
        )

    results: dict[str, Any] = {system: aggregate(rows) for system, rows in per_system.items()}
    results["engram_item_level"] = aggregate(item_level)
    results["engram_latency_ms"] = {
        "p50": round(1000 * statistics.median(latencies), 1),
        "p95": round(1000 * statistics.quantiles(latencies, n=20)[18], 1),
        "note": "includes embedding the question; same process, loopback Neo4j",
    }
    results["questions"] = len(questions)
    # A quick look at a subset must never overwrite the full benchmark's results.
    name = f"locomo_recall_first{args.limit_questions}" if args.limit_questions else "locomo_recall"
    path = write_result(name, results)
    chart(results, RESULTS_DIR / f"{name}.png")
    print(path)
    for system in SYSTEMS:
        row, multi, adv = (results[system][c] for c in ("all-no-adv", "multi-hop", "adversarial"))
        print(
            f"{system:10s} all-no-adv R@5 {row['R@5']:5.1f} R@10 {row['R@10']:5.1f} R@25 {row['R@25']:5.1f} "
            f"nDCG@10 {row['nDCG@10']:5.1f} R@1024tok {row['R@1024tok']:5.1f} | multi-hop R@10 {multi['R@10']:5.1f} "
            f"| adversarial R@10 {adv['R@10']:5.1f}"
        )


if __name__ == "__main__":
    main()
