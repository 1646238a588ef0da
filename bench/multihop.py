"""Multi-hop document recall on HotpotQA and MuSiQue development questions: Engram against flat baselines over
whole paragraphs.

Each dataset's whole corpus is ingested through the real pipeline (worker, Neo4j) as document records, one per
paragraph with its title, into one space (`bench-multihop-<dataset>`); every question recalls from that space with
the default engine. A returned item counts for the paragraphs that prove it (the documents of its provenance), so
Engram's items become a ranked list of distinct paragraphs. Passage R@2/@5/@10 and All@5 (every gold paragraph in
the first five) against BM25, dense MiniLM and their fusion over the same paragraphs (title and text), in the same
run; reported over all questions and over each half (the first half chooses any tuning, the second reports it).
Needs the stack running (`make up`). Writes bench/results/multihop.json and multihop.png.

    ~/.cache/engram/venv/bin/python -m bench.multihop [--reuse] [--datasets musique] [--limit 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.common import RESULTS_DIR, git_commit, write_result
from bench.flat_baselines import FlatIndex
from bench.job_progress import wait_for_jobs
from bench.multihop_data import DATASETS, Dataset, Question, document_records, load
from bench.retrieval_metrics import all_at, recall_at
from engram.embedding import get_embedder
from engram.formats.loading import validate_records
from engram.ids import stable_id
from engram.models import SourceKind
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest, RecallResult
from workers.tasks.ingest import submit_ingest

SYSTEMS = ("engram", "bm25", "dense", "hybrid")
METRICS = ("R@2", "R@5", "R@10", "All@5")
RECORDS_PER_JOB = 50  # small jobs: a progress bar that moves, and the worker's two processes both busy


def space_of(dataset: str) -> str:
    return f"bench-multihop-{dataset}"


def ingest(dataset: Dataset, reuse: bool) -> dict[str, float] | None:
    """Ingest the corpus into a fresh space; None when `reuse` finds every paragraph already there."""
    space = space_of(dataset.name)
    driver = get_driver()
    found, _, _ = driver.execute_query(
        "MATCH (s:Source {space: $space, kind: 'document'}) RETURN count(s) AS n", space=space
    )
    if reuse and found[0]["n"] == len(dataset.paragraphs):
        return None
    delete_space(driver, get_settings().neo4j.database, space)  # measure a fresh ingestion
    records = validate_records(document_records(dataset.paragraphs), label=f"{dataset.name} paragraph")
    started = time.perf_counter()
    job_ids = [submit_ingest(space, records[i : i + RECORDS_PER_JOB]) for i in range(0, len(records), RECORDS_PER_JOB)]
    wait_for_jobs(job_ids, desc=f"ingest {dataset.name}")
    elapsed = time.perf_counter() - started
    counted, _, _ = driver.execute_query("MATCH (p:Proposition {space: $space}) RETURN count(p) AS n", space=space)
    return {
        "paragraphs": len(records),
        "seconds": round(elapsed, 1),
        "paragraphs_per_s": round(len(records) / elapsed, 2),
        "propositions": counted[0]["n"],
    }


def engram_paragraphs(result: RecallResult, paragraph_of_source: dict[str, str]) -> list[str]:
    """Distinct paragraphs in item order: each item's proving documents, in provenance order."""
    ranked: list[str] = []
    for item in result.items:
        for proof in item.provenance:
            paragraph = paragraph_of_source.get(proof.source_id)
            if paragraph is not None and paragraph not in ranked:
                ranked.append(paragraph)
    return ranked


def passage_metrics(ranked: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    metrics = {f"R@{k}": recall_at(ranked, gold, k) for k in (2, 5, 10)}
    metrics["All@5"] = all_at(ranked, gold, 5)
    return metrics


def mean_metrics(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    return {m: round(100 * statistics.fmean(r[m] for r in rows), 1) for m in METRICS}


def summarise(rows: Sequence[dict[str, float]]) -> dict[str, Any]:
    """All questions, plus the first half (where tuning is chosen) and the second half (where it is reported)."""
    half = len(rows) // 2
    summary: dict[str, Any] = mean_metrics(rows) | {"questions": len(rows)}
    if half:
        summary[f"first{half}"] = mean_metrics(rows[:half])
        summary[f"last{len(rows) - half}"] = mean_metrics(rows[half:])
    return summary


def misses_against_best_flat(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Engram's misses (100 - R) over those of the best flat system on that metric: the issue's goal is <= 0.6."""
    ratios: dict[str, dict[str, Any]] = {}
    for metric in ("R@5", "All@5"):
        best = max(("bm25", "dense", "hybrid"), key=lambda s: results[s][metric])
        misses = 100 - results[best][metric]
        ratio = (100 - results["engram"][metric]) / misses if misses else float("inf")
        ratios[metric] = {"ratio": round(ratio, 2), "best_flat": best}
    return ratios


def evaluate(dataset: Dataset, engine: RecallEngine) -> dict[str, Any]:
    embedder = get_embedder()
    space = space_of(dataset.name)
    texts = [f"{p.title}\n{p.text}" for p in dataset.paragraphs]
    index = FlatIndex([p.id for p in dataset.paragraphs], texts, embedder.encode(texts))
    paragraph_of_source = {stable_id("src", space, SourceKind.DOCUMENT.value, p.id): p.id for p in dataset.paragraphs}
    query_vectors = embedder.encode([q.text for q in dataset.questions])
    rows: dict[str, list[dict[str, float]]] = {s: [] for s in SYSTEMS}
    latencies: list[float] = []
    questions: list[Question] = dataset.questions
    for question, vector in tqdm(list(zip(questions, query_vectors, strict=True)), desc=dataset.name, unit="q"):
        rows["bm25"].append(passage_metrics(index.bm25(question.text), question.gold))
        rows["dense"].append(passage_metrics(index.dense(vector), question.gold))
        rows["hybrid"].append(passage_metrics(index.hybrid(question.text, vector), question.gold))
        started = time.perf_counter()
        result = engine.recall(RecallRequest(space=space, query=question.text, token_budget=32_768, limit=200))
        latencies.append(time.perf_counter() - started)
        rows["engram"].append(passage_metrics(engram_paragraphs(result, paragraph_of_source), question.gold))
    results: dict[str, Any] = {system: summarise(system_rows) for system, system_rows in rows.items()}
    results["engram_misses_vs_best_flat"] = misses_against_best_flat(results)
    results["engram_latency_ms_p50"] = round(1000 * statistics.median(latencies), 1)
    return results


def chart(results: dict[str, Any], datasets: Sequence[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(datasets), figsize=(6 * len(datasets), 4), sharey=True, squeeze=False)
    width = 0.2
    for ax, name in zip(axes[0], datasets, strict=True):
        for i, system in enumerate(SYSTEMS):
            values = [results[name][system][m] for m in METRICS]
            ax.bar([x + i * width for x in range(len(METRICS))], values, width, label=system)
        ax.set_xticks([x + 1.5 * width for x in range(len(METRICS))], METRICS)
        ax.set_title(f"{name}: passage recall ({results[name]['engram']['questions']} questions)")
        ax.set_ylim(0, 100)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("gold paragraphs retrieved (%)")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description="HotpotQA / MuSiQue passage recall benchmark")
    parser.add_argument("--datasets", nargs="+", choices=DATASETS, default=list(DATASETS))
    parser.add_argument("--reuse", action="store_true", help="keep a space already ingested with every paragraph")
    parser.add_argument("--limit", type=int, default=0, help="evaluate only the first N questions (a quick look)")
    args = parser.parse_args()

    embedder = get_embedder()
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    results: dict[str, Any] = {}
    for name in args.datasets:
        dataset = load(name)
        throughput = ingest(dataset, args.reuse)
        if args.limit:
            dataset = Dataset(dataset.name, dataset.paragraphs, dataset.questions[: args.limit])
        settle_heap()  # as the API server does once loaded (engram/runtime.py)
        results[name] = evaluate(dataset, engine) | {"ingest": throughput or "reused"}
    results["commit"] = git_commit()
    # A quick look at a subset must never overwrite the full benchmark's results.
    partial = args.limit or set(args.datasets) != set(DATASETS)
    stem = "multihop" + (f"_{'_'.join(args.datasets)}" if partial else "")
    stem += f"_first{args.limit}" if args.limit else ""
    path = write_result(stem, results)
    chart(results, args.datasets, RESULTS_DIR / f"{stem}.png")
    print(path)
    for name in args.datasets:
        for system in SYSTEMS:
            row = results[name][system]
            print(f"{name:9s} {system:7s} " + " ".join(f"{m} {row[m]:5.1f}" for m in METRICS))
        print(f"{name:9s} engram misses / best flat: {results[name]['engram_misses_vs_best_flat']}")


if __name__ == "__main__":
    main()
