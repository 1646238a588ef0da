"""LoCoMo recall before and after consolidation's revisions step, in one run, on a copy of its own.

The conversation is bulk-imported (the code behind `engram import --bulk`; no revision is linked at import) into a
space of this benchmark's own, `bench-revisions-<conversation>`, rebuilt each run; its questions are recalled as it
is, then `link_revisions` writes the space's revisions (graph/consolidation/revisions.py) and the same questions are
recalled twice: with the defaults (a replaced statement returned just below the one that replaced it,
graph/recall/steps/earlier_versions.py) and with `earlier_versions=0` (the replaced statement only reachable with
`asOf` / `history`). Needs the stack's Neo4j running; writes nothing to any other space.

    ~/.cache/engram/venv/bin/python -m bench.revision_recall --conversation conv-30 --name revision_recall_locomo_conv30
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from typing import Any

from bench.common import LOCOMO_PATH, git_commit, write_result
from bench.locomo_data import load
from bench.locomo_format import locomo_records
from bench.locomo_recall import engram_units
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.settings import get_settings
from graph.admin import delete_space
from graph.consolidation.revisions import RevisionRules, link_revisions
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.bulk_import import BulkImporter
from workers.resources import get_redis

METRICS = ("R@5", "R@10", "R@1024tok")


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo recall before and after the revisions step (on a copy)")
    parser.add_argument("--conversation", default="conv-30")
    parser.add_argument("--name", default="revision_recall_locomo")
    args = parser.parse_args()
    _, questions = load(LOCOMO_PATH)
    asked = [q for q in questions if q.sample_id == args.conversation]
    (record,) = [r for r in locomo_records(LOCOMO_PATH.read_text()) if r.id == args.conversation]
    embedder, driver, database = get_embedder(), get_driver(), get_settings().neo4j.database
    space = f"bench-revisions-{args.conversation}"
    delete_space(driver, database, space)
    importer = BulkImporter(
        driver, database, space, create_extractor(ExtractionSettings()), embedder.encode, get_redis()
    )
    importer.run([record])
    engines = {
        name: RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=config)
        for name, config in (("defaults", RecallConfig()), ("no earlier versions", RecallConfig(earlier_versions=0)))
    }

    def recall_all(engine: RecallEngine) -> dict[str, dict[str, float]]:
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
            for category, rows in sorted(by.items())
        }

    before = recall_all(engines["defaults"])
    outcome = link_revisions(driver, database, space, RevisionRules(enabled=True))
    after = {name: recall_all(engine) for name, engine in engines.items()}
    result: dict[str, Any] = {
        "conversation": args.conversation,
        "questions": len(asked),
        "revised": outcome.revised,
        "candidates": outcome.candidates,
        "before": before,
        "after": after["defaults"],
        "after_without_earlier_versions": after["no earlier versions"],
        "commit": git_commit(),
        "command": f"python -m bench.revision_recall --conversation {args.conversation} --name {args.name}",
    }
    print(result)
    for engine in engines.values():
        engine.close()
    delete_space(driver, database, space)
    write_result(args.name, result)


if __name__ == "__main__":
    main()
