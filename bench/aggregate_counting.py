"""Whether the aggregate's figure answers LongMemEval's counting questions, on the spaces already ingested.

Every development question taking the aggregation path whose answer is a number and whose haystack space holds all
its turns is recalled as `bench.longmemeval` does (asked at its date, by the user), and its aggregate's `value` judged
against the answer (bench/aggregate_answers.py `judged`); the halves are `bench.longmemeval_data.halves` over all
answerable questions (choose on `tune`, quote `report`). The complete abstention questions asking a computation are
recalled too: memory holds nothing to compute from, so no number is right (`bench.longmemeval.abstaining`). Ingests
nothing. To measure an older commit on the same spaces, run it from a worktree of that commit (PYTHONPATH first):

    ~/.cache/engram/venv/bin/python -m bench.aggregate_counting [--ids 603deb26 e3038f8c] > counting.json
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bench.abstention import ingested
from bench.aggregate_answers import judged, numeric_answer
from bench.longmemeval import DATA, abstaining, request_of
from bench.longmemeval_data import halves, load
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.aggregate.intent import aggregate_intent
from graph.driver import get_driver
from graph.recall.engine import RecallEngine


def main() -> None:
    parser = argparse.ArgumentParser(description="LongMemEval counting questions: the aggregate's value vs the answer")
    parser.add_argument("--ids", nargs="*", default=[], help="only these question ids")
    args = parser.parse_args()
    embedder, driver = get_embedder(), get_driver()
    engine = RecallEngine(driver, get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    questions = load(DATA)
    half_of = {
        q.id: half for half, members in halves([q for q in questions if not q.abstention]).items() for q in members
    }

    asking = [
        q
        for q in questions
        if not q.abstention and aggregate_intent(q.text) is not None and numeric_answer(q.answer) is not None
    ]
    rows: list[dict[str, Any]] = []
    for question in ingested([q for q in asking if not args.ids or q.id in args.ids]):
        row = judged(question.id, question.text, question.answer, engine.recall(request_of(question)).aggregate)
        rows.append({"half": half_of[question.id], "type": question.type} | row)
    abstention = abstaining(questions, engine) if not args.ids else []
    engine.close()
    by_half = {
        half: f"{sum(r['equal'] for r in rows if r['half'] == half)} of {sum(r['half'] == half for r in rows)}"
        for half in ("tune", "report")
    }
    summary = {
        "equal": sum(r["equal"] for r in rows),
        "tried": len(rows),
        "by_half": by_half,
        "abstention_numbers": sum(r["value"] is not None for r in abstention),
        "abstention_asked": len(abstention),
    }
    print(json.dumps(summary | {"questions": rows, "abstention": abstention}, indent=1))


if __name__ == "__main__":
    main()
