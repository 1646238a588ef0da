"""What consolidation's revisions step (graph/consolidation/revisions.py) links on LongMemEval_S knowledge-update
haystacks, planned over each space's current propositions without writing anything (a dry run), with the revisions
already written (a consolidation's or an ingest's): how many links per haystack, whether the question's knowledge-
update pair is among them (a statement proven by an evidence turn of the newest answer session revising one proven
by an evidence turn of an older answer session), and a seeded sample of the links with their two texts, to be judged
by reading. Spaces are those bench.longmemeval ingested (bench-lme-<id>); a haystack not ingested with every turn is
skipped (`python -m bench.longmemeval --reuse --types knowledge-update` ingests them).

    ~/.cache/engram/venv/bin/python -m bench.revision_links --name revision_links [--half tune|report|all] [--sample 20]

Rules are RevisionRules' defaults unless given (--statement-cosine, --object-cosine, --sibling-max, --min-gap-s,
--max-statements); the results file names them. `--apply-per-type N` writes the links instead (consolidation's
revisions step alone, `link_revisions`) in the spaces of `bench.longmemeval --per-type N`, for a recall run after them.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import asdict, replace
from typing import Any

import neo4j

from bench.common import write_result
from bench.longmemeval import DATA, select, space_of
from bench.longmemeval_data import LmeQuestion, halves, load
from engram.settings import get_settings
from graph.consolidation.duplicates import load_active
from graph.consolidation.revisions import (
    RevisionRules,
    _speakers_and_concepts,
    link_revisions,
    plan_revisions,
    statements,
)
from graph.cypher import load as cypher
from graph.driver import get_driver


def ingested(driver: neo4j.Driver, database: str, question: LmeQuestion) -> bool:
    rows, _, _ = driver.execute_query(
        "MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space_of(question), database_=database
    )
    return int(rows[0]["n"]) == len(question.turns)


def audit(driver: neo4j.Driver, database: str, question: LmeQuestion, rules: RevisionRules) -> dict[str, Any]:
    space = space_of(question)
    views, vectors = load_active(driver, database, space)
    speakers, yields, keys, concept_vectors = _speakers_and_concepts(driver, database, space)
    items = statements(views, speakers, keys, yields)
    plans = plan_revisions(items, vectors, concept_vectors, rules)
    rows, _, _ = driver.execute_query(cypher("bench/proposition_turns"), space=space, database_=database)
    turns = {r["id"]: set(r["turns"]) for r in rows}
    texts = {r["id"]: r["text"] for r in rows}
    # Revisions already written (a consolidation or an ingest linked them): counted with the planned ones.
    written = [(r["id"], old) for r in rows for old in r["revises"]]
    dates = {s.dataset_id: s.started_at for s in question.sessions}
    answers = sorted(question.answer_sessions, key=lambda s: dates[s])
    session_of = {t.id: t.session for t in question.turns}

    evidence = set(question.evidence)

    def sessions(pid: str) -> set[str]:
        """The answer sessions whose evidence turns (has_answer) prove `pid`."""
        return {session_of[t] for t in turns.get(pid, set()) if t in session_of and t in evidence}

    links = []
    pair = False
    pairs = [(plan.survivor, plan.replaced, round(plan.similarity, 3), "planned") for plan in plans]
    for newer, older, cosine, how in pairs + [(new, old, None, "written") for new, old in written]:
        linked_pair = answers[-1] in sessions(newer) and bool(set(answers[:-1]) & sessions(older))
        pair = pair or linked_pair
        links.append(
            {"older": texts[older], "newer": texts[newer], "cosine": cosine, "how": how, "answer_pair": linked_pair}
        )
    return {
        "question": question.id,
        "text": question.text,
        "answer": question.answer,
        "propositions": len(items),
        "links": len(links),
        "written": len(written),
        "answer_pair_linked": pair,
        "link_list": links,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Revisions planned on LongMemEval knowledge-update haystacks")
    parser.add_argument("--name", default="revision_links", help="results file name (bench/results/NAME.json)")
    parser.add_argument("--half", choices=("tune", "report", "all"), default="all")
    parser.add_argument("--sample", type=int, default=20, help="links sampled for reading (seeded)")
    parser.add_argument("--apply-per-type", type=int, default=0, help="write the links in these spaces (0: plan)")
    defaults = RevisionRules()
    parser.add_argument("--statement-cosine", type=float, default=defaults.statement_cosine)
    parser.add_argument("--object-cosine", type=float, default=defaults.object_cosine)
    parser.add_argument("--sibling-max", type=float, default=defaults.sibling_max)
    parser.add_argument("--min-gap-s", type=float, default=defaults.min_gap_s)
    parser.add_argument("--max-statements", type=int, default=defaults.max_statements)
    args = parser.parse_args()
    rules = replace(
        defaults,
        statement_cosine=args.statement_cosine,
        object_cosine=args.object_cosine,
        sibling_max=args.sibling_max,
        min_gap_s=args.min_gap_s,
        max_statements=args.max_statements,
    )
    driver, database = get_driver(), get_settings().neo4j.database
    if args.apply_per_type:
        for question in select(load(DATA), [], args.apply_per_type):
            if ingested(driver, database, question):
                outcome = link_revisions(driver, database, space_of(question), rules)
                print(f"{space_of(question)}: {outcome.revised} revised of {outcome.candidates} statements")
        return
    questions = [q for q in load(DATA) if q.type == "knowledge-update" and not q.abstention]
    if args.half != "all":
        questions = halves(questions)[args.half]
    present = [q for q in questions if ingested(driver, database, q)]
    audits = [audit(driver, database, q, rules) for q in present]
    every = [dict(link, question=a["question"]) for a in audits for link in a["link_list"]]
    sample = random.Random(44).sample(every, min(args.sample, len(every)))
    for a in audits:
        pair = a["answer_pair_linked"]
        print(f"{a['question']}: {a['links']} links over {a['propositions']} statements, pair {pair}")
    for link in sample:
        print(f"[{link['question']} {link['how']} {link['cosine']}] {link['older']!r}\n    -> {link['newer']!r}")
    write_result(
        args.name,
        {
            "rules": asdict(rules),
            "questions": len(questions),
            "haystacks_ingested": len(present),
            "skipped": [q.id for q in questions if q not in present],
            "answer_pairs_linked": sum(a["answer_pair_linked"] for a in audits),
            "links_per_haystack": statistics.fmean(a["links"] for a in audits) if audits else 0.0,
            "sample": sample,
            "haystacks": audits,
        },
    )


if __name__ == "__main__":
    main()
