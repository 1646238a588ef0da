"""'Nothing relevant' at the defaults: LongMemEval_S's abstention questions (the development file's `_abs` ones and the
10 of `longmemeval_s_abstention10.json.gz`: "table tennis" where only tennis was said) recalled as an app recalls,
with no minimum relevance of its own, beside answerable development questions of every type as the control.

Each question's haystack is ingested into its own space (bench/longmemeval.py `ingest`; spaces already ingested with
every turn are reused) and recalled once at the engine's defaults (limit, budget, no `minRelevance`), asked at its date
by the user of the assistant. Reported: the share of abstention questions answered with no item (and their reasons),
the share of answerable questions emptied, and turn R@5 / R@10 of the answerable ones. Run it from another tree's code
on the same spaces (`PYTHONPATH=<tree> python /work/main/bench/abstention_defaults.py --reuse --name NAME`) to compare
recall alone.

    ~/.cache/engram/venv/bin/python -m bench.abstention_defaults [--per-type 2] [--reuse] [--name abstention_defaults]
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from tqdm import tqdm

from bench.common import SHARED_DATA, git_commit, write_result
from bench.locomo_recall import engram_units
from bench.longmemeval import ADDRESSEE, ASKER, ingest, select, space_of
from bench.longmemeval_data import LmeQuestion, load
from bench.retrieval_metrics import recall_at
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest

DEV = SHARED_DATA / "longmemeval" / "longmemeval_s_dev100.json.gz"
MORE_ABSTENTION = SHARED_DATA / "longmemeval" / "longmemeval_s_abstention10.json.gz"


def questions(per_type: int) -> tuple[list[LmeQuestion], list[LmeQuestion]]:
    """(abstention questions, answerable controls)."""
    dev = load(DEV)
    abstention = [q for q in dev if q.abstention] + load(MORE_ABSTENTION)
    return abstention, select(dev, [], per_type)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-type", type=int, default=2, help="answerable controls of each question type")
    parser.add_argument("--reuse", action="store_true", help="keep spaces already ingested with every turn")
    parser.add_argument("--name", default="abstention_defaults")
    args = parser.parse_args()

    abstention, answerable = questions(args.per_type)
    for question in tqdm([*abstention, *answerable], desc="ingest haystacks", unit="question"):
        ingest(question, args.reuse)
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    rows: list[dict[str, Any]] = []
    for question in tqdm([*abstention, *answerable], desc="questions", unit="q"):
        request = RecallRequest(
            space=space_of(question), query=question.text, asker=ASKER, addressee=ADDRESSEE, now=question.asked_at
        )
        result = engine.recall(request)
        ranked, _, _ = engram_units(result, embedder.count_tokens)
        evidence = question.evidence
        row: dict[str, Any] = {
            "id": question.id, "type": question.type, "abstention": question.abstention, "question": question.text,
            "empty": not result.items, "reason": result.reason,
        }  # fmt: skip
        if not question.abstention and evidence:
            row |= {"turnR@5": recall_at(ranked, evidence, 5), "turnR@10": recall_at(ranked, evidence, 10)}
        rows.append(row)
    engine.close()

    def share(group: list[dict[str, Any]], key: str) -> float | None:
        return round(100 * statistics.mean(float(r[key]) for r in group), 1) if group else None

    abstaining = [r for r in rows if r["abstention"]]
    answering = [r for r in rows if not r["abstention"]]
    scored = [r for r in answering if "turnR@5" in r]
    summary = {
        "abstention_emptied": share(abstaining, "empty"),
        "abstention_questions": len(abstaining),
        "answerable_emptied": share(answering, "empty"),
        "answerable_questions": len(answering),
        "turnR@5": share(scored, "turnR@5"),
        "turnR@10": share(scored, "turnR@10"),
        "rows": rows,
        "commit": git_commit(),
        "command": f"python -m bench.abstention_defaults --per-type {args.per_type} --name {args.name}",
    }
    path = write_result(args.name, summary)
    print(path, {k: v for k, v in summary.items() if k not in ("rows", "commit", "command")})


if __name__ == "__main__":
    main()
