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

from bench.aggregate_answers import judged, numeric_answer
from bench.longmemeval import ADDRESSEE, ASKER, DATA, abstaining, space_of
from bench.longmemeval_data import halves, load
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.aggregate.intent import aggregate_intent
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


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

    def complete(space: str, turns: int) -> bool:
        records, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space)
        return int(records[0]["n"]) == turns

    rows: list[dict[str, Any]] = []
    for question in questions:
        if question.abstention or aggregate_intent(question.text) is None or numeric_answer(question.answer) is None:
            continue
        if (args.ids and question.id not in args.ids) or not complete(space_of(question), len(question.turns)):
            continue
        request = RecallRequest(space=space_of(question), query=question.text, token_budget=32_768, hop_limit=2,
                                limit=200, asker=ASKER, addressee=ADDRESSEE, now=question.asked_at)  # fmt: skip
        row = judged(question.id, question.text, question.answer, engine.recall(request).aggregate)
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
