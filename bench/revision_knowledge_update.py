"""LongMemEval knowledge-update questions before and after consolidation's revisions step, in one run, on copies.

Each knowledge-update question whose haystack bench.longmemeval ingested completely (`bench-lme-<id>`, every turn) is
copied in the graph (apoc.refactor.cloneSubgraph: its nodes and the relationships between them) into a space of this
benchmark's own, `bench-revku-<id>`, rebuilt each run, so the ingested space is only read. Its question is recalled
as bench.longmemeval asks it, then `link_revisions` writes the copy's revisions (graph/consolidation/revisions.py)
and the question is recalled again with the defaults and with `current_versions=False`: turn R@5 / R@10, session
any@5 and whether the newest answer session ranks above the older ones (bench.longmemeval `metrics`).

    ~/.cache/engram/venv/bin/python -m bench.revision_knowledge_update --name revision_knowledge_update
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import neo4j

from bench.common import git_commit, write_result
from bench.locomo_recall import engram_units
from bench.longmemeval import ADDRESSEE, ASKER, DATA, metrics, space_of
from bench.longmemeval_data import LmeQuestion, halves, load
from bench.revision_links import ingested
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.admin import delete_space
from graph.consolidation.revisions import RevisionRules, link_revisions
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest

FIGURES = ("turnR@5", "turnR@10", "sessAny@5", "newest_first")

LABELS = ("Space", "Source", "Episode", "Proposition", "Concept", "Intent", "Prescription", "Dimension")
# Each label through its (space, id) index: a label-less match would scan every node of the database.
CLONE = (
    "CALL () {\n"
    + "\n  UNION\n".join(f"  MATCH (n:{label} {{space: $source}}) RETURN n" for label in LABELS)
    + "\n}\n"
    + """WITH collect(n) AS nodes
CALL apoc.refactor.cloneSubgraph(nodes, [], {skipProperties: ['space']}) YIELD output
SET output.space = $copy
RETURN count(output) AS copied
"""
)


# Revisions an earlier run wrote in the ingested space (bench.revision_links --apply-per-type) are undone in the copy:
# the before is the space as ingested.
UNLINK = """
MATCH (:Proposition {space: $copy})-[r:SUPERSEDES {reason: 'updated', carry: false}]->(old:Proposition {space: $copy})
SET old.status = 'active', old.expired_at = null, old.superseded_by = null, old.valid_to = null
DELETE r
RETURN count(r) AS unlinked
"""


def copy_space(driver: neo4j.Driver, database: str, source: str, copy: str) -> tuple[int, int]:
    """`source`'s nodes and the relationships between them, copied into the space `copy` (emptied first), without
    its revisions: (nodes copied, revisions undone)."""
    delete_space(driver, database, copy)
    rows, _, _ = driver.execute_query(CLONE, source=source, copy=copy, database_=database)
    unlinked, _, _ = driver.execute_query(UNLINK, copy=copy, database_=database)
    return int(rows[0]["copied"]), int(unlinked[0]["unlinked"])


def main() -> None:
    parser = argparse.ArgumentParser(description="LongMemEval knowledge-update recall before and after revisions")
    parser.add_argument("--name", default="revision_knowledge_update")
    parser.add_argument("--keep", action="store_true", help="leave the copies (linked) for inspection")
    args = parser.parse_args()
    driver, database = get_driver(), get_settings().neo4j.database
    questions = [q for q in load(DATA) if q.type == "knowledge-update" and not q.abstention]
    half = {q.id: name for name, members in halves(questions).items() for q in members}
    present = [q for q in questions if ingested(driver, database, q)]
    embedder = get_embedder()
    engines = {
        name: RecallEngine(driver, database, embedder.encode, embedder.count_tokens, config=config)
        for name, config in (
            ("defaults", RecallConfig()),
            ("no current versions", RecallConfig(current_versions=False)),
        )
    }

    def recall(engine: RecallEngine, question: LmeQuestion, space: str) -> dict[str, float]:
        request = RecallRequest(
            space=space, query=question.text, token_budget=32_768, limit=200, asker=ASKER, addressee=ADDRESSEE,
            now=question.asked_at,
        )  # fmt: skip
        ranked, units, _ = engram_units(engine.recall(request), embedder.count_tokens)
        return metrics(question, ranked, units)

    rows: list[dict[str, Any]] = []
    for question in present:
        copy = f"bench-revku-{question.id.lower()}"
        copied, unlinked = copy_space(driver, database, space_of(question), copy)
        before = recall(engines["defaults"], question, copy)
        outcome = link_revisions(driver, database, copy, RevisionRules(enabled=True))
        after = {name: recall(engine, question, copy) for name, engine in engines.items()}
        row = {
            "question": question.id,
            "half": half[question.id],
            "nodes": copied,
            "revisions_undone": unlinked,
            "revised": outcome.revised,
            "before": {f: before.get(f) for f in FIGURES},
            "after": {f: after["defaults"].get(f) for f in FIGURES},
            "after_without_current_versions": {f: after["no current versions"].get(f) for f in FIGURES},
        }
        print(row)
        rows.append(row)
        if not args.keep:
            delete_space(driver, database, copy)
    for engine in engines.values():
        engine.close()

    def mean(system: str, figure: str) -> float | None:
        values = [r[system][figure] for r in rows if r[system][figure] is not None]
        return round(100 * statistics.fmean(values), 1) if values else None

    systems = ("before", "after", "after_without_current_versions")
    write_result(
        args.name,
        {
            "questions": len(questions),
            "copied": [q.id for q in present],
            "not_ingested": [q.id for q in questions if q not in present],
            "revised": sum(r["revised"] for r in rows),
            "summary": {s: {f: mean(s, f) for f in FIGURES} for s in systems},
            "rows": rows,
            "commit": git_commit(),
        },
    )


if __name__ == "__main__":
    main()
