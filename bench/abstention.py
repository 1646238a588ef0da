"""Honest answers: how often recall rightly answers "nothing relevant", and what the cut-off costs answerable questions.

LongMemEval_S abstention questions ask about what was never said (the development file's `_abs` questions and the 10
of `longmemeval_s_abstention10.json.gz`: "table tennis" where only tennis was said); the answerable development
questions are the control. Each question's haystack is ingested into a space of its own (as bench/longmemeval.py
does; spaces already ingested with every turn are reused), and the question recalled once with no minimum relevance
(`min_relevance=0`), limit 200 and a 32k budget, asked at the question's date by the user of the assistant. From each
returned item the bench keeps the relevance features (graph/recall/logic/relevance.py) and whether its provenance holds
an evidence turn; the calibration and the cut-off are then applied offline:

1. fit: a logistic regression of "memory answers the question" on the features of the first 10 items of each
   question of the tune half (questions split by type into alternate halves, bench/longmemeval_data.py `halves`; the
   abstention questions alternately too), unless `--coefficients engine` keeps the engine's configured calibration;
2. the default minimum relevance: on the tune half, the largest share of abstention questions emptied with at most 3%
   of answerable ones emptied and turn R@10 within 1 point of no cut-off;
3. report: on the report half and on all questions, the share of abstention questions answered with no item, the
   share of answerable ones wrongly emptied, turn R@10 with and without the cut-off; the same for LoCoMo's questions
   in the conversations already ingested by bench/locomo_recall.py (its adversarial questions have no answer in the
   conversation's words, but carry evidence turns: emptied shares are reported per category);
4. the names gate (`unmentioned_names`, graph/recall/steps/relevance.py): the questions using a name that
   nothing in the space mentions, asked of Neo4j as the engine asks it (the gate itself is off while the items are
   collected, so R@10 without it comes from the same run): the shares gated, and turn R@10 with a gated question
   counted as returning nothing.

`--coefficients engine` keeps the engine's configured calibration and default minimum (graph/recall/config.py) and
reports how far the offline replay is from the relevance the engine itself returned (`replay_max_difference`: 0 when
the figures are the product's).

    ~/.cache/engram/venv/bin/python -m bench.abstention --per-type 2 --locomo [--coefficients engine] [--name NAME]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from bench.common import LOCOMO_PATH, SHARED_DATA, write_result
from bench.locomo_data import load as load_locomo
from bench.locomo_recall import space_of as locomo_space
from bench.longmemeval import ADDRESSEE, ASKER, ingest, select, space_of
from bench.longmemeval_data import LmeQuestion, halves, load
from bench.retrieval_metrics import recall_at
from engram.embedding import get_embedder
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.config import RecallConfig, RelevanceModel
from graph.recall.engine import Neo4jSearchers, RecallEngine
from graph.recall.logic.relevance import (
    FEATURES,
    QueryCoverage,
    calibrated,
    content_terms,
    item_features,
    question_concepts,
    with_support,
)
from graph.recall.models import RecallRequest, RecallResult
from graph.recall.steps.relevance import unmentioned_names

LME_DIR = SHARED_DATA / "longmemeval"
DEV = LME_DIR / "longmemeval_s_dev100.json.gz"
ABSTENTION = LME_DIR / "longmemeval_s_abstention10.json.gz"
FIT_ITEMS = 10  # the items per question the calibration is fitted on (turn R@10's)
MAX_EMPTIED = 0.03  # the goals: at most 3% of answerable questions emptied ...
MAX_R10_LOSS = 1.0  # ... and turn R@10 within 1 point of no cut-off
THRESHOLDS = [round(0.005 * i, 3) for i in range(121)]  # 0 to 0.6


def lme_questions(per_type: int) -> tuple[list[LmeQuestion], list[LmeQuestion]]:
    """(answerable development questions, the first `per_type` of each type (0: all); the 15 abstention ones)."""
    dev = load(DEV)
    abstention = [q for q in dev if q.abstention] + [q for q in load(ABSTENTION) if q.abstention]
    return select(dev, [], per_type), abstention


def ingested(questions: Sequence[LmeQuestion]) -> list[LmeQuestion]:
    driver = get_driver()
    kept = []
    for question in questions:
        found, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space_of(question))
        if found[0]["n"] == len(question.turns):
            kept.append(question)
    return kept


def item_rows(result: RecallResult, query: str, config: RecallConfig, evidence: set[str]) -> list[dict[str, Any]]:
    """Each returned item: its features (as the relevance step computes them), its turns, whether it is evidence,
    and the relevance the engine gave it."""
    phrases, weights = question_concepts(query, config.abstention.relevance_phrases)
    (detail,) = [step.detail for step in result.trace if step.step == "relevance"]
    coverage = QueryCoverage(phrases, weights, detail["matched"], detail["missing"], detail["near"])
    terms = content_terms(phrases, weights)
    top = max((item.score for item in result.items), default=0.0)
    every = with_support(
        [
            item_features(
                item.components.get("similarity", 0.0),
                item.score,
                top,
                [item.text, *(p.text for p in item.provenance)],
                coverage,
                terms,
            )
            for item in result.items
        ]
    )
    rows = []
    for item, features in zip(result.items, every, strict=True):
        turns = [p.external_id for p in item.provenance]
        rows.append(
            {
                "features": features,
                "turns": turns,
                "evidence": any(t in evidence for t in turns),
                "engine_relevance": item.relevance,
            }
        )
    return rows


def recall_rows(
    engine: RecallEngine, config: RecallConfig, space: str, query: str, evidence: set[str], **request: Any
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The question's items (the engine's names gate off: `engine.config`) and its coverage, with the names the gate
    would find unmentioned (`unmentioned`), asked of the space as the engine asks."""
    result = engine.recall(
        RecallRequest(space=space, query=query, token_budget=32_768, limit=200, min_relevance=0.0, **request)
    )
    (detail,) = [step.detail for step in result.trace if step.step == "relevance"]
    coverage = {k: detail[k] for k in ("concepts", "matched", "missing", "near", "concept_coverage")}
    searcher = Neo4jSearchers(get_driver(), get_settings().neo4j.database, config, None).at(space, None, None)
    coverage["unmentioned"] = unmentioned_names(searcher, query, config.abstention.unmentioned_typo_from)
    return item_rows(result, query, config, evidence), coverage


def names_gate(rows: Sequence[dict[str, Any]], group_of: Any) -> dict[str, Any]:
    """Per group (`group_of(row)`): the share of questions the names gate empties, and turn R@10 without and with it
    (a gated question returns nothing)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[group_of(row)].append(row)
    out: dict[str, Any] = {}
    for name, group in sorted(groups.items()):
        gated = [q for q in group if q["coverage"].get("unmentioned")]
        with_evidence = [q for q in group if q["evidence"]]
        figures_: dict[str, Any] = {
            "questions": len(group),
            "gated": len(gated),
            "gated_share": round(100 * len(gated) / len(group), 1),
        }
        if with_evidence:
            before = [
                recall_at(kept_turns(q["items"], RelevanceModel(), 0.0), q["evidence"], 10) for q in with_evidence
            ]
            after = [0.0 if q["coverage"].get("unmentioned") else b for q, b in zip(with_evidence, before, strict=True)]
            figures_ |= {"R@10_gate_off": round(100 * statistics.fmean(before), 1),
                         "R@10_gate_on": round(100 * statistics.fmean(after), 1)}  # fmt: skip
        figures_["gated_questions"] = [
            {"question": q["question"], "unmentioned": q["coverage"]["unmentioned"]} for q in gated
        ]
        out[name] = figures_
    return out


def relevance_of(row: dict[str, Any], model: RelevanceModel) -> float:
    return calibrated(row["features"], model.intercept, model.model_dump(exclude={"intercept"}))


def kept_turns(items: Sequence[dict[str, Any]], model: RelevanceModel, minimum: float) -> list[str]:
    """The ranked distinct turns of the items (bench/locomo_recall.py `engram_units`), none when no item reaches
    `minimum` (graph/recall/steps/prune.py: the minimum gates the answer)."""
    if minimum > 0 and max((relevance_of(item, model) for item in items), default=0.0) < minimum:
        return []
    ranked: list[str] = []
    for item in items:
        ranked.extend(t for t in item["turns"] if t not in ranked)
    return ranked


def figures(questions: Sequence[dict[str, Any]], model: RelevanceModel, minimum: float) -> dict[str, Any]:
    """Emptied shares and turn R@10 with and without the cut-off, answerable and abstention apart."""
    answerable = [q for q in questions if not q["abstention"]]
    abstaining = [q for q in questions if q["abstention"]]

    def emptied(group: Sequence[dict[str, Any]]) -> float:
        return statistics.fmean(not kept_turns(q["items"], model, minimum) for q in group) if group else float("nan")

    def r10(group: Sequence[dict[str, Any]], cut: float) -> float:
        values = [recall_at(kept_turns(q["items"], model, cut), q["evidence"], 10) for q in group if q["evidence"]]
        return 100 * statistics.fmean(values) if values else float("nan")

    return {
        "abstention_emptied": round(100 * emptied(abstaining), 1),
        "abstention_questions": len(abstaining),
        "answerable_emptied": round(100 * emptied(answerable), 1),
        "answerable_questions": len(answerable),
        "turnR@10": round(r10(answerable, minimum), 1),
        "turnR@10_no_cut": round(r10(answerable, 0.0), 1),
    }


def fit(questions: Sequence[dict[str, Any]]) -> RelevanceModel:
    """A logistic regression of "memory answers the question" over the first FIT_ITEMS items of each question: an
    item of an answerable question is relevant, one of an abstention question is not (an item-level "holds an
    evidence turn" fit ranks evidence within a question but does not separate the questions: its best items of
    abstention and answerable questions overlap)."""
    from sklearn.linear_model import LogisticRegression

    top = [(q, item) for q in questions for item in q["items"][:FIT_ITEMS]]
    x = np.array([[item["features"][f] for f in FEATURES] for _, item in top])
    y = np.array([not q["abstention"] for q, _ in top])
    model = LogisticRegression(C=1.0, max_iter=1000).fit(x, y)
    weights = {f: round(float(w), 3) for f, w in zip(FEATURES, model.coef_[0], strict=True)}
    return RelevanceModel(intercept=round(float(model.intercept_[0]), 3), **weights)


def choose_minimum(questions: Sequence[dict[str, Any]], model: RelevanceModel) -> tuple[float, list[dict[str, Any]]]:
    """The threshold emptying most abstention questions within the goals' bounds on answerable ones (ties: the
    lowest, which cuts least)."""
    sweep = [{"min_relevance": t} | figures(questions, model, t) for t in THRESHOLDS]
    allowed = [
        row
        for row in sweep
        if row["answerable_emptied"] <= 100 * MAX_EMPTIED and row["turnR@10_no_cut"] - row["turnR@10"] <= MAX_R10_LOSS
    ]
    best = max(allowed, key=lambda row: (row["abstention_emptied"], -row["min_relevance"]))
    return float(best["min_relevance"]), sweep


def locomo_figures(rows: Sequence[dict[str, Any]], model: RelevanceModel, minimum: float) -> dict[str, Any]:
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_category[row["category"]].append(row)
        by_category["all"].append(row)

    def r10(group: Sequence[dict[str, Any]], cut: float) -> float | None:
        values = [recall_at(kept_turns(q["items"], model, cut), q["evidence"], 10) for q in group if q["evidence"]]
        return round(100 * statistics.fmean(values), 1) if values else None

    return {
        category: {
            "questions": len(group),
            "emptied": round(100 * statistics.fmean(not kept_turns(q["items"], model, minimum) for q in group), 1),
            "R@10": r10(group, minimum),
            "R@10_no_cut": r10(group, 0.0),
        }
        for category, group in sorted(by_category.items())
    }


def collect_lme(
    engine: RecallEngine, config: RecallConfig, answerable: list[LmeQuestion], abstaining: list[LmeQuestion]
) -> list[dict[str, Any]]:
    for question in tqdm([*abstaining, *answerable], desc="ingest haystacks (reused when complete)"):
        ingest(question, reuse=True)
    split = halves(answerable)
    half_of = {q.id: half for half, members in split.items() for q in members}
    half_of |= {q.id: ("tune", "report")[i % 2] for i, q in enumerate(abstaining)}
    rows = []
    for question in tqdm([*answerable, *abstaining], desc="LongMemEval questions"):
        evidence = set(question.evidence)
        items, coverage = recall_rows(
            engine, config, space_of(question), question.text, evidence,
            asker=ASKER, addressee=ADDRESSEE, now=question.asked_at,
        )  # fmt: skip
        rows.append(
            {
                "id": question.id,
                "type": question.type,
                "question": question.text,
                "abstention": question.abstention,
                "half": half_of[question.id],
                "evidence": sorted(evidence),
                "coverage": coverage,
                "items": items,
            }
        )
    return rows


def collect_locomo(engine: RecallEngine, config: RecallConfig, first: int = 0) -> list[dict[str, Any]]:
    """LoCoMo's questions (the `first` of each conversation; 0: all) of the conversations bench/locomo_recall.py has
    ingested (complete spaces only)."""
    turns, questions = load_locomo(LOCOMO_PATH)
    driver = get_driver()
    rows = []
    for sample_id, sample_turns in turns.items():
        found, _, _ = driver.execute_query(
            "MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=locomo_space(sample_id)
        )
        if found[0]["n"] != len(sample_turns):
            continue
        asked = [q for q in questions if q.sample_id == sample_id]
        for question in tqdm(asked[:first] if first else asked, desc=sample_id):
            items, coverage = recall_rows(
                engine, config, locomo_space(sample_id), question.text, set(question.evidence)
            )
            rows.append(
                {
                    "sample": sample_id,
                    "question": question.text,
                    "category": question.category,
                    "evidence": list(question.evidence),
                    "coverage": coverage,
                    "items": items,
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="Abstention: recall's 'nothing relevant' on LongMemEval and LoCoMo")
    parser.add_argument("--per-type", type=int, default=0, help="answerable questions: the first N of each type")
    parser.add_argument(
        "--recall",
        nargs="*",
        choices=("lme", "locomo"),
        default=["lme", "locomo"],
        help="the question sets to recall now; the others' rows come from the cache of an earlier run",
    )
    parser.add_argument(
        "--locomo-questions", type=int, default=0, help="LoCoMo: the first N questions of each conversation (0: all)"
    )
    parser.add_argument(
        "--coefficients", choices=("fit", "engine"), default="fit", help="fit the calibration or keep the engine's"
    )
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache/engram/bench/abstention/rows.json")
    parser.add_argument(
        "--ingested-only", action="store_true", help="only the questions whose haystack is already ingested"
    )
    parser.add_argument("--name", default="abstention", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()

    config = RecallConfig(unmentioned_names=False)  # the gate is measured apart (`names_gate`)
    cached: dict[str, list[dict[str, Any]]] = {"lme": [], "locomo": []}
    if args.cache.exists():
        cached |= json.loads(args.cache.read_text())
    if args.recall:
        answerable, abstaining = lme_questions(args.per_type)
        if args.ingested_only:
            answerable, abstaining = ingested(answerable), ingested(abstaining)
        embedder = get_embedder()
        engine = RecallEngine(
            get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens, config=config
        )
        settle_heap()
        if "lme" in args.recall:
            cached["lme"] = collect_lme(engine, config, answerable, abstaining)
        if "locomo" in args.recall:
            cached["locomo"] = collect_locomo(engine, config, args.locomo_questions)
        engine.close()
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        args.cache.write_text(json.dumps(cached))
    lme_rows, locomo_rows = cached["lme"], cached["locomo"]

    tune = [q for q in lme_rows if q["half"] == "tune"]
    report = [q for q in lme_rows if q["half"] == "report"]
    model = fit(tune) if args.coefficients == "fit" else config.abstention.relevance
    minimum, sweep = choose_minimum(tune, model)
    if args.coefficients == "engine":
        minimum = config.request.min_relevance
    results: dict[str, Any] = {
        "relevance_model": model.model_dump(),
        "min_relevance": minimum,
        "chosen_on": "tune half" if args.coefficients == "fit" else "the engine's configured default",
        "tune": figures(tune, model, minimum),
        "report": figures(report, model, minimum),
        "all": figures(lme_rows, model, minimum),
        "sweep_tune": sweep,
        "abstention_questions": [
            {
                "id": q["id"],
                "question": q["question"],
                "half": q["half"],
                "emptied": not kept_turns(q["items"], model, minimum),
                "best_relevance": round(max((relevance_of(i, model) for i in q["items"]), default=0.0), 4),
                "missing": q["coverage"]["missing"],
                "near": q["coverage"]["near"],
            }
            for q in lme_rows
            if q["abstention"]
        ],
        "answerable_emptied": [
            {"id": q["id"], "question": q["question"], "half": q["half"], "missing": q["coverage"]["missing"]}
            for q in lme_rows
            if not q["abstention"] and not kept_turns(q["items"], model, minimum)
        ],
    }
    results["names_gate"] = names_gate(lme_rows, lambda q: "abstention" if q["abstention"] else "answerable")
    if locomo_rows:
        results["locomo"] = locomo_figures(locomo_rows, model, minimum)
        results["locomo_names_gate"] = names_gate(
            locomo_rows, lambda q: "adversarial" if q["category"] == "adversarial" else "answerable"
        )
    if args.coefficients == "engine":
        results["replay_max_difference"] = max(
            (
                abs(relevance_of(item, model) - item["engine_relevance"])
                for q in [*lme_rows, *locomo_rows]
                for item in q["items"]
                # Items the Aggregate step leads with (after Relevance) carry no relevance of the engine's.
                if item["engine_relevance"] is not None
            ),
            default=0.0,
        )
    results["protocol"] = (
        "each question recalled once (min_relevance 0, limit 200, 32k tokens, asked at its date by the user); "
        "relevance recomputed offline from the items' features with the model above; turn R@10 over has_answer "
        "turns of the answerable questions; a question is emptied when no item reaches the minimum"
    )
    path = write_result(args.name, results)
    print(path)
    print(json.dumps({k: results[k] for k in ("relevance_model", "min_relevance", "tune", "report", "all")}, indent=1))
    for key in ("names_gate", "locomo_names_gate"):
        if key in results:
            print(
                key,
                json.dumps(
                    {g: {k: v for k, v in f.items() if k != "gated_questions"} for g, f in results[key].items()}
                ),
            )
    if locomo_rows:
        print(json.dumps(results["locomo"], indent=1))


if __name__ == "__main__":
    main()
