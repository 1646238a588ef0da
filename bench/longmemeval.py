"""Recall on LongMemEval_S development questions: Engram against flat baselines over the same raw turns.

Each question's haystack (~40-58 user/assistant sessions with their dates) is ingested through the real pipeline
(worker, Neo4j) into a space of its own; the question text recalls from it, asked at the question's date (the
engine's defaults: the router picks the memory types). Engram's ranked items become ranked distinct turns (item rank
first, then the item's provenance turns), as in bench/locomo_recall.py; BM25, dense MiniLM and their fusion rank the
same turns in the same run, and so does the fusion with the turns of the speaker the question means
(`hybrid_speaker`, see ASKER below). Abstention questions (no answer in the haystack) are left out. Metrics, per
question type and over all: turn recall@5/10/25 over `has_answer` turns, session recall_any@5/@10 and recall_all@10
(the sessions of the first k ranked turns), recall within 512/1024/2048 returned tokens, and for knowledge-update
questions how often the newest answer session is ranked above the older one (`knowledge_update_newest_first`).
Questions are split by type into alternate `tune` and `report` halves; settings are chosen on `tune`, and `report`
is the figure to quote.
Needs the stack running (`make up`). Writes bench/results/longmemeval.json and longmemeval.png.

    ~/.cache/engram/venv/bin/python -m bench.longmemeval --per-type 4 [--reuse] [--types knowledge-update]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm

from bench.aggregate_answers import judged, numeric_answer
from bench.common import RESULTS_DIR, SHARED_DATA, last_timed_ingest, write_result
from bench.flat_baselines import FlatIndex
from bench.locomo_recall import engram_units
from bench.longmemeval_data import QUESTION_TYPES, LmeQuestion, halves, load
from bench.retrieval_metrics import recall_at, recall_within_tokens
from engram.embedding import get_embedder
from engram.formats.loading import validate_records
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.aggregate.config import AggregateConfig
from graph.aggregate.intent import aggregate_intent
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from graph.recall.query import persons_meant
from workers.jobs import wait_for_job
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

DATA = SHARED_DATA / "longmemeval" / "longmemeval_s_dev100.json.gz"
VECTOR_CACHE = Path.home() / ".cache" / "engram" / "bench" / "longmemeval"
SYSTEMS = ("engram", "bm25", "dense", "hybrid", "hybrid_speaker")
# The questions are the user's, asked of the assistant: their "I" / "my" mean the user and their "you" the assistant
# (as the haystack's speakers are stored, bench/longmemeval_data.py). Engram is told so (the request's asker and
# addressee), and so is one flat baseline, `hybrid_speaker`: the hybrid fused with a dense ranking of the turns of the
# speakers the question means, by the engine's own reading of its pronouns.
ASKER, ADDRESSEE = "User", "Assistant"
TOKEN_BUDGETS = (512, 1024, 2048)


def space_of(question: LmeQuestion) -> str:
    return f"bench-lme-{question.id.lower().replace('_', '-')}"


def request_of(question: LmeQuestion, space: str | None = None, hops: int = 2) -> RecallRequest:
    """The recall request this benchmark makes of a question (in its own space unless `space` names another)."""
    return RecallRequest(
        space=space or space_of(question), query=question.text, token_budget=32_768, hop_limit=hops, limit=200,
        asker=ASKER, addressee=ADDRESSEE, now=question.asked_at,
    )  # fmt: skip


def ingest(question: LmeQuestion, reuse: bool) -> float | None:
    """Ingests the haystack into the question's space; returns the seconds it took (None: reused)."""
    driver, space = get_driver(), space_of(question)
    found, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space)
    if reuse and found[0]["n"] == len(question.turns):
        return None
    delete_space(driver, get_settings().neo4j.database, space)  # measure a fresh ingestion
    records = validate_records([question.record()])
    started = time.perf_counter()
    status = wait_for_job(get_job_store(), submit_ingest(space, records), timeout_s=3600)
    if status.error:
        raise RuntimeError(f"{question.id}: {status.error}")
    return time.perf_counter() - started


def turn_vectors(question: LmeQuestion, encode: Callable[[Sequence[str]], NDArray[np.float32]]) -> NDArray[np.float32]:
    """The dense baseline's turn embeddings, cached on disk (embedding ~500 long turns costs ~30 s here)."""
    path = VECTOR_CACHE / f"{question.id}.npy"
    texts = [turn.text for turn in question.turns]
    if path.exists():
        cached: NDArray[np.float32] = np.load(path)
        if cached.shape[0] == len(texts):
            return cached
    vectors = encode(texts)
    VECTOR_CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def session_ranking(session_of: dict[str, str], ranked_turns: Sequence[str]) -> list[str]:
    """The dataset's session ids in the order their first turn is ranked (`session_of`: turn id -> session id)."""
    order: list[str] = []
    for turn in ranked_turns:
        session = session_of.get(turn)
        if session is not None and session not in order:
            order.append(session)
    return order


def newest_first(question: LmeQuestion, order: Sequence[str]) -> float:
    """1 when the latest-dated answer session is in the session `order` and above every older answer session."""
    dates = {s.dataset_id: s.started_at for s in question.sessions}
    answers = sorted(question.answer_sessions, key=lambda s: dates[s])
    newest = answers[-1]
    if newest not in order:
        return 0.0
    return float(all(s not in order or order.index(newest) < order.index(s) for s in answers[:-1]))


def metrics(
    question: LmeQuestion, ranked_turns: Sequence[str], units: Sequence[tuple[int, Sequence[str]]]
) -> dict[str, float]:
    evidence = question.evidence
    answers = set(question.answer_sessions)
    session_of = {turn.id: turn.session for turn in question.turns}
    figures = {f"turnR@{k}": recall_at(ranked_turns, evidence, k) for k in (5, 10, 25)}
    for k in (5, 10):
        figures[f"sessAny@{k}"] = float(bool(answers & set(session_ranking(session_of, ranked_turns[:k]))))
    figures["sessAll@10"] = float(answers <= set(session_ranking(session_of, ranked_turns[:10])))
    figures["turnAll@25"] = float(set(evidence) <= set(ranked_turns[:25]))  # every evidence turn in the first 25
    for budget in TOKEN_BUDGETS:
        figures[f"R@{budget}tok"] = recall_within_tokens(units, evidence, budget)
    if question.type == "knowledge-update" and len(answers) > 1:
        figures["newest_first"] = newest_first(question, session_ranking(session_of, ranked_turns))
    return figures


def aggregate(rows: list[tuple[LmeQuestion, dict[str, float]]]) -> dict[str, dict[str, float]]:
    by_type: dict[str, list[dict[str, float]]] = defaultdict(list)
    for question, figures in rows:
        by_type[question.type].append(figures)
        by_type["all"].append(figures)
    out: dict[str, dict[str, float]] = {}
    for qtype in (*QUESTION_TYPES, "all"):
        group = by_type.get(qtype)
        if not group:
            continue
        names = sorted({name for figures in group for name in figures if name != "newest_first"})
        out[qtype] = {name: round(100 * statistics.fmean(f[name] for f in group), 1) for name in names}
        out[qtype]["questions"] = len(group)
    return out


def newest_first_share(rows: list[tuple[LmeQuestion, dict[str, float]]]) -> dict[str, float]:
    values = [figures["newest_first"] for _, figures in rows if "newest_first" in figures]
    return {"share": round(statistics.fmean(values), 3) if values else float("nan"), "questions": len(values)}


def chart(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    types = [t for t in (*QUESTION_TYPES, "all") if t in results["engram"]]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5), sharey=True)
    for ax, metric in zip(axes, ("turnR@10", "sessAny@5"), strict=True):
        width = 0.8 / len(SYSTEMS)
        for offset, system in enumerate(SYSTEMS):
            values = [results[system][t][metric] for t in types]
            ax.bar(np.arange(len(types)) + offset * width, values, width, label=system)
        ax.set_xticks(np.arange(len(types)) + 0.4 - width / 2, [t.replace("-", "\n") for t in types], fontsize=7)
        ax.set_title(f"LongMemEval_S dev: {metric}")
        ax.set_ylim(0, 100)
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def abstaining(questions: list[LmeQuestion], engine: RecallEngine) -> list[dict[str, Any]]:
    """The abstention questions asking a computation (memory holds nothing to compute it from) whose haystacks are
    ingested completely (never ingested here): whether the aggregate still gives a number."""
    rows = []
    driver = get_driver()
    for question in questions:
        if not question.abstention or aggregate_intent(question.text) is None:
            continue
        found, _, _ = driver.execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space_of(question))
        if found[0]["n"] != len(question.turns):
            continue
        request = RecallRequest(
            space=space_of(question), query=question.text, token_budget=32_768, limit=200, asker=ASKER,
            addressee=ADDRESSEE, now=question.asked_at,
        )  # fmt: skip
        aggregate = engine.recall(request).aggregate
        value = aggregate.value if aggregate else None
        reason = aggregate.reason if aggregate else None
        rows.append({"id": question.id, "question": question.text, "value": value, "reason": reason})
    return rows


def select(questions: list[LmeQuestion], types: list[str], per_type: int) -> list[LmeQuestion]:
    kept = [q for q in questions if not q.abstention and (not types or q.type in types)]
    if not per_type:
        return kept
    taken: dict[str, int] = defaultdict(int)
    chosen = []
    for question in kept:
        if taken[question.type] < per_type:
            taken[question.type] += 1
            chosen.append(question)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description="LongMemEval_S recall benchmark (development questions)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--reuse", action="store_true", help="keep spaces already ingested with every turn")
    parser.add_argument("--per-type", type=int, default=0, help="the first N questions of each type (0: all)")
    parser.add_argument("--types", nargs="*", default=[], choices=QUESTION_TYPES, help="only these question types")
    parser.add_argument("--ids", nargs="*", default=[], help="only these question ids (e.g. the spaces ingested)")
    parser.add_argument("--hops", type=int, default=2)
    parser.add_argument("--name", default="longmemeval", help="results file name (bench/results/NAME.json)")
    parser.add_argument(
        "--aggregate",
        action="store_true",
        help="also recall with the aggregation path off (engram_no_aggregate, the before) and judge counting answers",
    )
    args = parser.parse_args()
    systems = (*SYSTEMS, "engram_no_aggregate") if args.aggregate else SYSTEMS

    selected = select(load(args.data), args.types, args.per_type)
    # --ids keeps the halves of the whole selection (a question stays in the half it is in without --ids).
    questions = [q for q in selected if q.id in set(args.ids)] if args.ids else selected
    embedder = get_embedder()
    ingest_seconds: list[float] = []
    ingested_turns = ingested_tokens = truncated = 0
    for question in tqdm(questions, desc="ingest haystacks", unit="question"):
        seconds = ingest(question, args.reuse)
        truncated += question.truncated_turns
        if seconds is not None:
            ingest_seconds.append(seconds)
            ingested_turns += len(question.turns)
            ingested_tokens += sum(embedder.count_tokens(turn.text) for turn in question.turns)

    database = get_settings().neo4j.database
    engine = RecallEngine(get_driver(), database, embedder.encode, embedder.count_tokens)
    # The same engine with the aggregation path off: the before of the aggregate's effect, in the same run.
    without = RecallConfig(aggregate=AggregateConfig(enabled=False))
    before = RecallEngine(get_driver(), database, embedder.encode, embedder.count_tokens, config=without)
    settle_heap()  # as the API server does once loaded (engram/runtime.py)
    per_system: dict[str, list[tuple[LmeQuestion, dict[str, float]]]] = {s: [] for s in systems}
    latencies: list[float] = []
    latencies_before: dict[str, list[float]] = {"aggregate": [], "other": []}
    latencies_after: dict[str, list[float]] = {"aggregate": [], "other": []}
    counting: list[dict[str, Any]] = []
    for question in tqdm(questions, desc="questions", unit="q"):
        turns = question.turns
        index = FlatIndex([t.id for t in turns], [t.text for t in turns], turn_vectors(question, embedder.encode))
        tokens = {t.id: embedder.count_tokens(t.text) for t in turns}
        vector = embedder.encode([question.text])[0]
        meant = set(persons_meant(question.text, ASKER, ADDRESSEE))
        said_by_meant = {t.id for t in turns if t.speaker in meant}
        for system, ranked in (
            ("bm25", index.bm25(question.text)),
            ("dense", index.dense(vector)),
            ("hybrid", index.hybrid(question.text, vector)),
            ("hybrid_speaker", index.hybrid_preferring(question.text, vector, said_by_meant)),
        ):
            per_system[system].append((question, metrics(question, ranked, [(tokens[t], [t]) for t in ranked])))
        request = request_of(question, hops=args.hops)
        started = time.perf_counter()
        result = engine.recall(request)
        latencies.append(time.perf_counter() - started)
        ranked, units, _ = engram_units(result, embedder.count_tokens)
        per_system["engram"].append((question, metrics(question, ranked, units)))
        if args.aggregate:
            group = "aggregate" if aggregate_intent(question.text) else "other"
            latencies_after[group].append(latencies[-1])
            started = time.perf_counter()
            plain = before.recall(request)
            latencies_before[group].append(time.perf_counter() - started)
            ranked, units, _ = engram_units(plain, embedder.count_tokens)
            per_system["engram_no_aggregate"].append((question, metrics(question, ranked, units)))
            if result.aggregate is not None and numeric_answer(question.answer) is not None:
                row = judged(question.id, question.text, question.answer, result.aggregate)
                counting.append(row | {"type": question.type, "turnR@10": per_system["engram"][-1][1]["turnR@10"]})

    split = {half: [q for q in members if q in questions] for half, members in halves(selected).items()}
    results: dict[str, Any] = {system: aggregate(rows) for system, rows in per_system.items()}
    results["knowledge_update_newest_first"] = {s: newest_first_share(rows) for s, rows in per_system.items()}
    results["halves"] = {
        half: {system: aggregate([row for row in rows if row[0] in members]) for system, rows in per_system.items()}
        for half, members in split.items()
    }
    results["question_ids"] = {half: [q.id for q in members] for half, members in split.items()}
    results["engram_latency_ms"] = {
        "p50": round(1000 * statistics.median(latencies), 1),
        "p95": round(1000 * statistics.quantiles(latencies, n=20)[18], 1) if len(latencies) > 1 else None,
        "note": "includes embedding the question; same process, loopback Neo4j",
    }
    results["ingest"] = {
        "haystacks": len(ingest_seconds),
        "turns": ingested_turns,
        "turn_tokens": ingested_tokens,
        "seconds": round(sum(ingest_seconds), 1),
        "turns_per_s": round(ingested_turns / sum(ingest_seconds), 1) if ingest_seconds else None,
        "tokens_per_s": round(ingested_tokens / sum(ingest_seconds), 1) if ingest_seconds else None,
        "truncated_turns": truncated,
        "note": "turns longer than the ingest format's limit are cut to it; reused spaces are not timed",
    }
    if not ingest_seconds:  # every space reused: the last timed ingestion stands (if it was of these questions)
        earlier = last_timed_ingest(args.name, ["ingest", "question_ids"])
        if earlier.get("question_ids") == results["question_ids"] and earlier.get("ingest", {}).get("haystacks"):
            results |= {"ingest": earlier["ingest"], "ingest_measured_at": earlier["ingest_measured_at"]}
    if args.aggregate:
        results["aggregate_counting"] = {}
        for half, members in split.items():
            rows = [row for row in counting if row["id"] in {q.id for q in members}]
            results["aggregate_counting"][half] = {
                "equal": sum(row["equal"] for row in rows),
                "tried": len(rows),
                "count_or_sum_equal": sum(row["count_or_sum"] for row in rows),
                "numbers_given": sum(row["value"] is not None for row in rows),
                "questions": rows,
            }
        results["aggregate_abstention"] = abstaining(load(args.data), engine)
        results["aggregate_latency_ms"] = {
            system: {
                group: {"p50": round(1000 * statistics.median(values), 1), "n": len(values)}
                for group, values in groups.items()
                if values
            }
            for system, groups in (("engram", latencies_after), ("engram_no_aggregate", latencies_before))
        }
    results["questions"] = len(questions)
    results["protocol"] = (
        "the question text, asked at the question date (the request's now: Engram reads the question's relative times "
        "against it); the asker is the user and the addressee the assistant (Engram's request and the hybrid_speaker "
        "baseline); the flat baselines rank by text alone"
    )
    path = write_result(args.name, results)
    chart(results, RESULTS_DIR / f"{args.name}.png")
    print(path)
    if args.aggregate:
        for half in ("tune", "report"):
            for system in ("engram_no_aggregate", "engram"):
                row = results["halves"][half].get(system, {}).get("multi-session", {})
                print(
                    f"{half} multi-session {system}: turnR@10 {row.get('turnR@10')} sessAll@10 {row.get('sessAll@10')} "
                    f"turnAll@25 {row.get('turnAll@25')}"
                )
            judged_half = results["aggregate_counting"][half]
            print(f"{half} counting: {judged_half['equal']} of {judged_half['tried']} equal")
        numbered = [row["id"] for row in results["aggregate_abstention"] if row["value"] is not None]
        print(f"abstention: a number on {len(numbered)} of {len(results['aggregate_abstention'])} {numbered}")
    for system in systems:
        row = results[system]["all"]
        report = results["halves"]["report"].get(system, {}).get("all", {})
        print(
            f"{system:7s} all: turnR@5 {row['turnR@5']:5.1f} turnR@10 {row['turnR@10']:5.1f} "
            f"sessAny@5 {row['sessAny@5']:5.1f} R@1024tok {row['R@1024tok']:5.1f} | report half turnR@10 "
            f"{report.get('turnR@10', float('nan')):5.1f} sessAny@5 {report.get('sessAny@5', float('nan')):5.1f} "
            f"| KU newest first {results['knowledge_update_newest_first'][system]['share']}"
        )


if __name__ == "__main__":
    main()
