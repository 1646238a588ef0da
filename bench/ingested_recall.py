"""Recall on every benchmark space already ingested, for comparing two versions of the recall code on the same data.

Recalls each LongMemEval development question whose haystack space holds all its turns and each question of the
LoCoMo development conversations whose spaces are complete (as `bench.longmemeval` and `bench.locomo_recall` do, with
their metrics), ingesting nothing. The code measured is whatever `graph`, `engram` and `bench` resolve to: to measure
an older commit on the same spaces, run this file from a worktree of it, that worktree first on PYTHONPATH:

    git worktree add /tmp/old a90d26a
    (cd /tmp/old && PYTHONPATH=/tmp/old ~/.cache/engram/venv/bin/python /work/main/bench/ingested_recall.py) > old.json
    ~/.cache/engram/venv/bin/python -m bench.ingested_recall > new.json

Prints JSON: figures per question type / LoCoMo category, and each LongMemEval question's own (to compare on the
questions both runs saw).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from typing import Any

from bench.common import LOCOMO_PATH
from bench.locomo_data import load as load_locomo
from bench.locomo_recall import engram_units
from bench.locomo_recall import space_of as locomo_space
from bench.longmemeval import DATA, metrics, request_of, space_of
from bench.longmemeval_data import load as load_lme
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def main() -> None:
    embedder, driver = get_embedder(), get_driver()
    engine = RecallEngine(driver, get_settings().neo4j.database, embedder.encode, embedder.count_tokens)

    def episodes(space: str) -> int:
        records, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space)
        return int(records[0]["n"])

    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    per_question: dict[str, dict[str, float]] = {}
    for question in load_lme(DATA):
        if question.abstention or episodes(space_of(question)) != len(question.turns):
            continue
        ranked, units, _ = engram_units(engine.recall(request_of(question)), embedder.count_tokens)
        figures = metrics(question, ranked, units)
        per_question[question.id] = figures
        groups[f"lme-{question.type}"].append(figures)
        groups["lme-all"].append(figures)
    turns, questions = load_locomo(LOCOMO_PATH)
    complete = {sample for sample in turns if episodes(locomo_space(sample)) == len(turns[sample])}
    for question in questions:
        if question.sample_id not in complete:
            continue
        request = RecallRequest(space=locomo_space(question.sample_id), query=question.text, token_budget=32_768,
                                hop_limit=2, limit=200)  # fmt: skip
        ranked, units, _ = engram_units(engine.recall(request), embedder.count_tokens)
        category = "locomo-adversarial" if question.category == "adversarial" else "locomo-no-adv"
        groups[category].append(turn_metrics(ranked, units, question.evidence))
    engine.close()
    summary: dict[str, Any] = {
        group: {name: round(100 * statistics.fmean(f[name] for f in rows if name in f), 1)
                for name in sorted({n for f in rows for n in f})} | {"n": len(rows)}
        for group, rows in sorted(groups.items())
    }  # fmt: skip
    print(json.dumps({"groups": summary, "locomo": sorted(complete), "per_question": per_question}, indent=1))


if __name__ == "__main__":
    main()
