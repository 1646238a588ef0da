"""Consolidation on the LoCoMo development conversations: what it removes, what it costs, what recall does.

Each conversation is ingested fresh through the real pipeline (worker, Neo4j) into its own space
(`bench-consolidate-<sample>`, apart from the recall benchmark's spaces). In the same run: LoCoMo evidence
recall on every question (as bench/locomo_recall.py measures Engram), then `consolidate(space)` on every
space (timed, with its report), then the same questions again. Goal: fewer active propositions with R@10
(all but adversarial) not lower; reported at item level (issue 5's definition) and at the stricter turn level.
Needs the stack running (`make up`). Writes bench/results/consolidate.json and consolidate.png.

    ~/.cache/engram/venv/bin/python -m bench.consolidate [--reuse] [--limit-questions N] [--samples conv-26 ...]

`--ablate` (a diagnostic, no result file) runs the jobs in nested stages on the same spaces and questions,
each stage adding jobs to the last (exact restatements only -> + same point in other words -> + updated facts
-> + association refresh and dimensions = the default run), and prints active propositions and recall after
each: one 'before' and one ingestion for every variant.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.common import LOCOMO_PATH, RESULTS_DIR, write_result
from bench.locomo_data import Question, load
from bench.locomo_format import locomo_records
from bench.locomo_recall import CATEGORY_ORDER, aggregate, engram_units
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.admin import delete_space
from graph.consolidation.report import ConsolidationReport, GraphFigures, figures
from graph.consolidation.run import ConsolidationOptions, consolidate
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.jobs import wait_for_job
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

METRICS = ("R@5", "R@10", "R@25", "nDCG@10", "R@1024tok", "R@10items")


def space_of(sample_id: str) -> str:
    return f"bench-consolidate-{sample_id}"


def ingest_fresh(data: Path, reuse: bool, samples: list[str] | None = None) -> None:
    """Every space unconsolidated: re-ingested unless --reuse finds it ingested and never consolidated."""
    driver, database = get_driver(), get_settings().neo4j.database
    records = [r for r in locomo_records(data.read_text()) if not samples or r.id in samples]
    for record in tqdm(records, desc="ingest conversations", unit="conv"):
        space = space_of(record.id)
        found = figures(driver, database, space)
        if reuse and found.active_propositions and not (found.superseded_propositions or found.alias_edges):
            continue
        delete_space(driver, database, space)
        status = wait_for_job(get_job_store(), submit_ingest(space, [record]), timeout_s=1800)
        if status.error:
            raise RuntimeError(status.error)


def evaluate(engine: RecallEngine, questions: list[Question], hops: int, label: str) -> dict[str, Any]:
    """Engram's evidence recall per category, measured exactly as bench/locomo_recall.py measures it."""
    per_question: list[tuple[Question, dict[str, float]]] = []
    latencies: list[float] = []
    for question in tqdm(questions, desc=f"recall {label}", unit="q"):
        started = time.perf_counter()
        result = engine.recall(
            RecallRequest(
                space=space_of(question.sample_id), query=question.text, token_budget=32_768, hop_limit=hops, limit=200
            )
        )
        latencies.append(time.perf_counter() - started)
        ranked, units, top10_items = engram_units(result, None)
        metrics = turn_metrics(ranked, units, question.evidence)
        # Item-level R@10 (issue 5's wording: evidence turns covered by the top 10 items): a merged proposition
        # proven by two turns fills one item slot but two turn slots in R@10.
        metrics["R@10items"] = sum(e in top10_items for e in question.evidence) / len(question.evidence)
        per_question.append((question, metrics))
    return {
        "by_category": aggregate(per_question),
        "latency_ms_p50": round(1000 * statistics.median(latencies), 1),
    }


def total(figs: list[GraphFigures]) -> dict[str, int]:
    return {name: sum(getattr(f, name) for f in figs) for name in GraphFigures.model_fields}


def chart(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2))
    samples = list(result["spaces"])
    width = 0.38
    for offset, (when, colour) in enumerate((("before", "#9aa5b1"), ("after", "#2f6fb3"))):
        values = [result["spaces"][s][when]["active_propositions"] for s in samples]
        left.bar([x + offset * width for x in range(len(samples))], values, width, label=when, color=colour)
    left.set_xticks([x + width / 2 for x in range(len(samples))], samples, fontsize=8)
    left.set_title("active propositions per conversation")
    left.legend(fontsize=8)
    left.grid(axis="y", alpha=0.3)
    categories = [c for c in CATEGORY_ORDER if c in result["recall_before"]]
    for offset, (when, colour) in enumerate((("recall_before", "#9aa5b1"), ("recall_after", "#2f6fb3"))):
        values = [result[when][c]["R@10"] for c in categories]
        right.bar([x + offset * width for x in range(len(categories))], values, width, label=when[7:], color=colour)
    right.set_xticks([x + width / 2 for x in range(len(categories))], categories, rotation=20, fontsize=8)
    right.set_ylim(0, 100)
    right.set_ylabel("evidence R@10 (%)")
    right.set_title("LoCoMo recall before / after consolidation")
    right.legend(fontsize=8)
    right.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


# Nested stages of --ablate: each adds jobs to the one before; the last is the default run.
ABLATION_STAGES: list[tuple[str, ConsolidationOptions]] = [
    (
        "exact restatements only",
        ConsolidationOptions(topic_merges=False, fact_updates=False, associations=False, dimensions=False),
    ),
    ("+ same point in other words", ConsolidationOptions(fact_updates=False, associations=False, dimensions=False)),
    ("+ updated facts", ConsolidationOptions(associations=False, dimensions=False)),
    ("+ association refresh, dimensions (default)", ConsolidationOptions()),
]


def ablate(engine: RecallEngine, questions: list[Question], samples: list[str], hops: int) -> None:
    driver, database = get_driver(), get_settings().neo4j.database
    rows: list[dict[str, Any]] = []

    def record(label: str) -> None:
        recall = evaluate(engine, questions, hops, label)["by_category"]["all-no-adv"]
        active = sum(figures(driver, database, space_of(s)).active_propositions for s in samples)
        rows.append({"stage": label, "active_propositions": active, **{m: recall[m] for m in METRICS}})
        print(json.dumps(rows[-1]), flush=True)

    record("before")
    for label, options in ABLATION_STAGES:
        for sample in samples:
            consolidate(space_of(sample), driver=driver, database=database, options=options)
        record(label)
    print(json.dumps({"samples": samples, "questions": len(questions), "stages": rows}))


def main() -> None:
    parser = argparse.ArgumentParser(description="Consolidation benchmark on LoCoMo dev")
    parser.add_argument("--data", type=Path, default=LOCOMO_PATH)
    parser.add_argument("--reuse", action="store_true", help="keep spaces already ingested and never consolidated")
    parser.add_argument("--hops", type=int, default=2)
    parser.add_argument("--limit-questions", type=int, default=0, help="evaluate only the first N (a quick look)")
    parser.add_argument("--samples", nargs="*", default=None, help="only these conversations (and their questions)")
    parser.add_argument("--ablate", action="store_true", help="nested stages of jobs, printed, no result file")
    args = parser.parse_args()

    _, questions = load(args.data)
    if args.samples:
        questions = [q for q in questions if q.sample_id in args.samples]
    if args.limit_questions:
        questions = questions[: args.limit_questions]
    ingest_fresh(args.data, args.reuse, args.samples)
    samples = [
        record.id for record in locomo_records(args.data.read_text()) if not args.samples or record.id in args.samples
    ]
    driver, database = get_driver(), get_settings().neo4j.database
    embedder = get_embedder()
    engine = RecallEngine(driver, database, embedder.encode, embedder.count_tokens)
    if args.ablate:
        ablate(engine, questions, samples, args.hops)
        return

    before_recall = evaluate(engine, questions, args.hops, "before")
    reports: dict[str, ConsolidationReport] = {}
    started = time.perf_counter()
    for sample in tqdm(samples, desc="consolidate", unit="space"):
        reports[sample] = consolidate(space_of(sample), driver=driver, database=database)
    consolidation_s = time.perf_counter() - started
    after_recall = evaluate(engine, questions, args.hops, "after")

    before, after = total([r.before for r in reports.values()]), total([r.after for r in reports.values()])
    r10_before = before_recall["by_category"]["all-no-adv"]["R@10"]
    r10_after = after_recall["by_category"]["all-no-adv"]["R@10"]
    r10_items_before = before_recall["by_category"]["all-no-adv"]["R@10items"]
    r10_items_after = after_recall["by_category"]["all-no-adv"]["R@10items"]
    result: dict[str, Any] = {
        "questions": len(questions),
        "conversations": len(samples),
        "before": before,
        "after": after,
        "active_propositions_removed": before["active_propositions"] - after["active_propositions"],
        "active_propositions_ratio": round(after["active_propositions"] / max(1, before["active_propositions"]), 4),
        "consolidation_seconds": round(consolidation_s, 2),
        "consolidation_step_seconds": {
            step: round(sum(r.step_seconds.get(step, 0.0) for r in reports.values()), 2)
            for step in next(iter(reports.values())).step_seconds
        },
        "jobs": {
            name: sum(getattr(r, name) for r in reports.values())
            for name in (
                "duplicate_candidates",
                "duplicates_found",
                "duplicates_merged",
                "facts_updated",
                "conflicts_found",
                "conflicts_resolved",
                "aliases_added",
                "intents_merged",
                "dimensions",
            )
        },
        "recall_before": before_recall["by_category"],
        "recall_after": after_recall["by_category"],
        "recall_delta": {
            category: {
                m: round(after_recall["by_category"][category][m] - before_recall["by_category"][category][m], 1)
                for m in METRICS
            }
            for category in before_recall["by_category"]
        },
        "latency_ms_p50": {"before": before_recall["latency_ms_p50"], "after": after_recall["latency_ms_p50"]},
        # The goal: fewer active propositions, R@10 (all but adversarial) not lower. Item-level R@10 is issue 5's
        # definition (evidence turns covered by the top 10 items); turn-level R@10 (distinct turns in item order,
        # as bench/locomo_recall.py ranks Engram against turn baselines) is stricter: a merged proposition proven
        # by two turns fills two of its ten slots.
        "goal_met_item_level": after["active_propositions"] < before["active_propositions"]
        and r10_items_after >= r10_items_before,
        "goal_met_turn_level": after["active_propositions"] < before["active_propositions"] and r10_after >= r10_before,
        "spaces": {
            sample: {
                "before": r.before.model_dump(),
                "after": r.after.model_dump(),
                "seconds": r.seconds,
                "duplicates_found": r.duplicates_found,
                "conflicts_resolved": r.conflicts_resolved,
                "aliases_added": r.aliases_added,
            }
            for sample, r in reports.items()
        },
        "settings": {"duplicate_threshold": 0.88, "hops": args.hops, "token_budget": 32_768, "limit": 200},
    }
    name = f"consolidate_first{args.limit_questions}" if args.limit_questions else "consolidate"
    path = write_result(name, result)
    chart(result, RESULTS_DIR / f"{name}.png")
    print(path)
    print(
        f"active propositions {before['active_propositions']} -> {after['active_propositions']} "
        f"({result['active_propositions_ratio']:.3f}), edges {before['edges']} -> {after['edges']}, "
        f"consolidation {consolidation_s:.1f} s"
    )
    print(
        f"R@10 all-no-adv: item level {r10_items_before:.1f} -> {r10_items_after:.1f} (goal met: "
        f"{result['goal_met_item_level']}), turn level {r10_before:.1f} -> {r10_after:.1f} (goal met: "
        f"{result['goal_met_turn_level']})"
    )


if __name__ == "__main__":
    main()
