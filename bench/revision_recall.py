"""LoCoMo recall before and after consolidation's revisions step, in one run, on a copy of its own.

The conversation is bulk-imported (the code behind `engram import --bulk`; no revision is linked at import) into a
space of this benchmark's own, `bench-revisions-<conversation>`, rebuilt each run; its questions are recalled as it
is, then `link_revisions` writes the space's revisions (graph/consolidation/revisions.py) and the same questions are
recalled with the defaults (a replaced statement stays a candidate, its current version just above it:
graph/recall/steps/current_versions.py), with `earlier_versions=1` (one earlier version below each returned fact:
graph/recall/steps/earlier_versions.py) and with `current_versions=False`. The results file
lists the questions whose turn R@10 fell (or rose) after the links: each evidence turn that left the first 10, where it
is now, and the replaced statements it proves with their successors and their places (membership or order).
Needs the stack's Neo4j running; writes nothing to any other space (`--keep` leaves its own, linked).

    ~/.cache/engram/venv/bin/python -m bench.revision_recall --conversation conv-30 --name revision_recall_locomo_conv30
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import neo4j

from bench.common import LOCOMO_PATH, git_commit, write_result
from bench.locomo_data import Question, load
from bench.locomo_format import locomo_records
from bench.locomo_recall import engram_units
from bench.retrieval_metrics import turn_metrics
from engram.embedding import get_embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.settings import get_settings
from graph.admin import delete_space
from graph.concept_keys.tries import create_key_namer
from graph.consolidation.revisions import RevisionRules, link_revisions
from graph.cypher import load as cypher
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.bulk_import import BulkImporter
from workers.resources import get_redis

METRICS = ("R@5", "R@10", "R@1024tok")


@dataclass(frozen=True)
class Asked:
    """One question's recall: its figures, the turns in rank order and the returned items' ids."""

    question: Question
    figures: dict[str, float]
    turns: list[str]
    items: list[str]


def revisions(driver: neo4j.Driver, database: str, space: str) -> dict[str, Any]:
    """The space's revisions: per turn, the statements it proves that a revision replaced, with their successors."""
    rows, _, _ = driver.execute_query(cypher("bench/proposition_turns"), space=space, database_=database)
    text = {r["id"]: r["text"] for r in rows}
    replaced_by = {old: r["id"] for r in rows for old in r["revises"]}
    by_turn: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        for turn in r["turns"]:
            by_turn[turn].append(r["id"])
    pairs = [(text[old], text[new]) for old, new in sorted(replaced_by.items())]
    return {"text": text, "replaced_by": replaced_by, "by_turn": by_turn, "pairs": pairs}


def losses(first: list[Asked], then: list[Asked], links: dict[str, Any], k: int = 10) -> list[dict[str, Any]]:
    """Questions whose turn R@k fell from `first` to `then`: each evidence turn lost from the first k, where it
    stands now (None: not returned), the statements it proves that a revision replaced (and whether recall still
    returned them) and their successors."""
    out = []
    for a, b in zip(first, then, strict=True):
        if b.figures[f"R@{k}"] >= a.figures[f"R@{k}"]:
            continue
        lost = [t for t in a.question.evidence if t in a.turns[:k] and t not in b.turns[:k]]
        turns = []
        for turn in lost:
            revised = [p for p in links["by_turn"].get(turn, []) if p in links["replaced_by"]]
            turns.append(
                {
                    "turn": turn,
                    "rank_before": a.turns.index(turn),
                    "rank_after": b.turns.index(turn) if turn in b.turns else None,
                    "revised": [
                        {
                            "older": links["text"][p],
                            "newer": links["text"][links["replaced_by"][p]],
                            "older_returned_at": b.items.index(p) if p in b.items else None,
                            "newer_returned_at": (
                                b.items.index(links["replaced_by"][p]) if links["replaced_by"][p] in b.items else None
                            ),
                        }
                        for p in revised
                    ],
                }
            )
        out.append(
            {
                "question": a.question.text,
                "category": a.question.category,
                f"R@{k}": [a.figures[f"R@{k}"], b.figures[f"R@{k}"]],
                "lost": turns,
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo recall before and after the revisions step (on a copy)")
    parser.add_argument("--conversation", default="conv-30")
    parser.add_argument("--name", default="revision_recall_locomo")
    parser.add_argument("--keep", action="store_true", help="leave the space (linked) for inspection")
    args = parser.parse_args()
    _, questions = load(LOCOMO_PATH)
    asked = [q for q in questions if q.sample_id == args.conversation]
    (record,) = [r for r in locomo_records(LOCOMO_PATH.read_text()) if r.id == args.conversation]
    embedder, driver, database = get_embedder(), get_driver(), get_settings().neo4j.database
    space = f"bench-revisions-{args.conversation}"
    delete_space(driver, database, space)
    importer = BulkImporter(
        driver, database, space, create_extractor(ExtractionSettings(), create_key_namer), embedder.encode, get_redis()
    )
    importer.run([record])
    engines = {
        name: RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=config)
        for name, config in (
            ("defaults", RecallConfig()),
            ("earlier versions", RecallConfig(earlier_versions=1)),
            ("no current versions", RecallConfig(current_versions=False)),
        )
    }

    def recall_all(engine: RecallEngine) -> tuple[dict[str, dict[str, float]], list[Asked]]:
        by: dict[str, list[dict[str, float]]] = defaultdict(list)
        each = []
        for question in asked:
            request = RecallRequest(space=space, query=question.text, token_budget=32_768, hop_limit=2, limit=200)
            result = engine.recall(request)
            ranked, units, _ = engram_units(result, embedder.count_tokens)
            figures = turn_metrics(ranked, units, question.evidence)
            by[question.category].append(figures)
            if question.category != "adversarial":
                by["all-no-adv"].append(figures)
            each.append(Asked(question, figures, ranked, [item.id for item in result.items]))
        summary = {
            category: {m: round(100 * statistics.fmean(f[m] for f in rows), 1) for m in METRICS} | {"n": len(rows)}
            for category, rows in sorted(by.items())
        }
        return summary, each

    before, asked_before = recall_all(engines["defaults"])
    outcome = link_revisions(driver, database, space, RevisionRules(enabled=True))
    after = {name: recall_all(engine) for name, engine in engines.items()}
    links = revisions(driver, database, space)
    result: dict[str, Any] = {
        "conversation": args.conversation,
        "questions": len(asked),
        "revised": outcome.revised,
        "candidates": outcome.candidates,
        "before": before,
        "after": after["defaults"][0],
        "after_with_earlier_versions": after["earlier versions"][0],
        "after_without_current_versions": after["no current versions"][0],
        "losses": {k: losses(asked_before, after["defaults"][1], links, k) for k in (5, 10)},
        "gains": {k: losses(after["defaults"][1], asked_before, links, k) for k in (5, 10)},
        "links": [{"older": o, "newer": n} for o, n in links["pairs"]],
        "commit": git_commit(),
        "command": f"python -m bench.revision_recall --conversation {args.conversation} --name {args.name}",
    }
    print(result)
    for engine in engines.values():
        engine.close()
    if not args.keep:
        delete_space(driver, database, space)
    write_result(args.name, result)


if __name__ == "__main__":
    main()
