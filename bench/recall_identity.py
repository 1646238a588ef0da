"""Whether a change to recall's code leaves its answers unchanged: the ranked ids (and relevance, reason and
aggregate figure) of a fixed set of questions on the ingested LongMemEval and LoCoMo spaces, written as JSON, and
two such files compared. Run the old code with its tree first on PYTHONPATH (`git archive <commit> | tar -x -C
/tmp/old`), then the new, then compare:

    PYTHONPATH=/tmp/old ~/.cache/engram/venv/bin/python /work/main/bench/recall_identity.py --out /tmp/old.json
    ~/.cache/engram/venv/bin/python -m bench.recall_identity --out /tmp/new.json --compare /tmp/old.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.abstention import ingested, lme_questions
from bench.common import LOCOMO_PATH
from bench.locomo_data import load as load_locomo
from bench.locomo_recall import space_of as locomo_space
from bench.longmemeval import request_of
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest, RecallResult


def answer(result: RecallResult) -> dict[str, Any]:
    return {
        "ids": [item.id for item in result.items],
        "relevance": [round(item.relevance or 0.0, 6) for item in result.items],
        "reason": result.reason,
        "aggregate": None if result.aggregate is None else [result.aggregate.count, result.aggregate.sum],
    }


def requests(per_benchmark: int) -> dict[str, RecallRequest]:
    """The first `per_benchmark` ingested LongMemEval development questions (answerable, then abstention) and as
    many LoCoMo questions spread over its complete conversations, each recalled deep (limit 200)."""
    driver = get_driver()
    answerable, abstaining = lme_questions(0)
    asked: dict[str, RecallRequest] = {}
    for question in ingested([*answerable, *abstaining])[:per_benchmark]:
        asked[f"lme:{question.id}"] = request_of(question)
    turns, questions = load_locomo(LOCOMO_PATH)

    def complete(sample: str) -> bool:
        count = "MATCH (e:Episode {space: $s}) RETURN count(e) AS n"
        records, _, _ = driver.execute_query(count, s=locomo_space(sample))
        return int(records[0]["n"]) == len(turns[sample])

    samples = [sample for sample in turns if complete(sample)]
    chosen = [q for q in questions if q.sample_id in samples]
    step = max(1, len(chosen) // per_benchmark) if chosen else 1
    for index, question in enumerate(chosen[::step][:per_benchmark]):
        asked[f"locomo:{question.sample_id}:{index}"] = RecallRequest(
            space=locomo_space(question.sample_id), query=question.text, token_budget=32_768, hop_limit=2, limit=200
        )
    return asked


def compare(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    shared = sorted(set(new) & set(old))
    fields = ("ids", "relevance", "reason", "aggregate")
    differing = {name: [f for f in fields if new[name][f] != old[name][f]] for name in shared}
    differing = {name: which for name, which in differing.items() if which}
    return {"questions": len(shared), "differing": len(differing), "which": differing}


def main() -> None:
    parser = argparse.ArgumentParser(description="recall's answers to a fixed question set, and their comparison")
    parser.add_argument("--per-benchmark", type=int, default=40, help="questions of LongMemEval and of LoCoMo each")
    parser.add_argument("--out", type=Path, required=True, help="the answers, JSON")
    parser.add_argument("--compare", type=Path, help="an earlier --out to compare with")
    args = parser.parse_args()
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    answers = {name: answer(engine.recall(request)) for name, request in tqdm(requests(args.per_benchmark).items())}
    engine.close()
    args.out.write_text(json.dumps(answers, indent=1))
    if args.compare:
        print(json.dumps(compare(answers, json.loads(args.compare.read_text())), indent=1))


if __name__ == "__main__":
    main()
