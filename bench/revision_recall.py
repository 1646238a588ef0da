"""LoCoMo recall before and after consolidation's revisions step, in one run: the conversation's questions are recalled
from its space as it is, then `link_revisions` writes the space's revisions (graph/consolidation/revisions.py), then
the same questions are recalled again. It WRITES to the space: run it on a copy (a private stack, the conversation
ingested with ENGRAM_WORKER_INGEST_REVISIONS=false so that nothing is linked yet), never on a space others measure.

    ENGRAM_WORKER_INGEST_REVISIONS=false  # on the worker that ingested the conversation
    ~/.cache/engram/venv/bin/python -m bench.revision_recall --conversation conv-30 --name revision_recall_locomo_conv30
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from typing import Any

from bench.common import LOCOMO_PATH, write_result
from bench.locomo_data import load
from bench.locomo_recall import engram_units, space_of
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.consolidation.revisions import link_revisions
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest

METRICS = ("R@5", "R@10", "R@1024tok")


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo recall before and after the revisions step (writes!)")
    parser.add_argument("--conversation", default="conv-30")
    parser.add_argument("--name", default="revision_recall_locomo")
    args = parser.parse_args()
    _, questions = load(LOCOMO_PATH)
    asked = [q for q in questions if q.sample_id == args.conversation]
    embedder, driver, database = get_embedder(), get_driver(), get_settings().neo4j.database
    engine = RecallEngine(driver, database, embedder.encode, embedder.count_tokens)
    space = space_of(args.conversation)

    def recall_all() -> dict[str, dict[str, float]]:
        by: dict[str, list[dict[str, float]]] = defaultdict(list)
        for question in asked:
            request = RecallRequest(space=space, query=question.text, token_budget=32_768, hop_limit=2, limit=200)
            ranked, units, _ = engram_units(engine.recall(request), embedder.count_tokens)
            figures = turn_metrics(ranked, units, question.evidence)
            by[question.category].append(figures)
            if question.category != "adversarial":
                by["all-no-adv"].append(figures)
        return {
            category: {m: round(100 * statistics.fmean(f[m] for f in rows), 1) for m in METRICS} | {"n": len(rows)}
            for category, rows in by.items()
        }

    before = recall_all()
    outcome = link_revisions(driver, database, space)
    after = recall_all()
    result: dict[str, Any] = {
        "conversation": args.conversation,
        "questions": len(asked),
        "revised": outcome.revised,
        "candidates": outcome.candidates,
        "before": before,
        "after": after,
    }
    print(result)
    engine.close()
    write_result(args.name, result)


if __name__ == "__main__":
    main()
