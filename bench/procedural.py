"""Procedural recall on ALFWorld expert demonstrations: does a new task of a known type recall a procedure for
that type? Engram against flat baselines over whole trajectories.

The demonstrations (bench/procedural_data.py builds the file) are grouped into tasks (task type, object,
receptacle). Per task type some tasks are held out; trajectories of the other tasks are ingested through the real
pipeline (worker, Neo4j) into one space as trajectory records. Each held-out task asks with its goal text only
("put a clean potato in microwave."); a returned item is relevant when it is a prescription extracted from a
trajectory of the query's task type. P@1: the first item is relevant; R@5: a relevant item is among the first
five; P@5: the share of relevant items among the first five. The flat baselines rank the ingested trajectories
(task, observations, actions as one text) and are scored the same way on their trajectories.

Three query sets: the ALFWorld goal itself, the ALFRED annotators' own description of the held-out task, and the
goal asked as a question ("How do I put a clean potato in microwave?"). The engine runs with its default tuning
and its router choosing the memory types. Halves: the held-out tasks of each type are split in two; nothing is
tuned here, and both halves are reported. Needs the stack running (`make up`).

    ~/.cache/engram/venv/bin/python -m bench.procedural [--reuse] [--limit N] [--name FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.common import last_timed_ingest, write_result
from bench.flat_baselines import FlatIndex
from bench.procedural_data import DEFAULT_OUT, TASK_TYPES
from engram.embedding import get_embedder
from engram.formats.records import Step, TrajectoryRecord
from engram.ids import stable_id
from engram.models import SourceKind
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import ItemKind, RecallRequest, RecallResult
from workers.jobs import wait_for_job
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

SPACE = "bench-proc-alfworld"
SOURCE = (
    "ALFWorld expert demonstrations (handcoded expert, TextWorld text; ALFWorld and ALFRED are MIT-licensed) "
    "with ALFRED crowd annotations, as hosted in github.com/Ruimeng-Ye/wts_70B "
    "eval_agent/data/alfworld/json_2.1.1/train (commit 97c1b8b6)"
)
FLAT = ("bm25_stem", "dense", "hybrid")
QUERY_SETS = ("goal", "human", "how_do_i")
JOB_RECORDS = 50


@dataclass(frozen=True)
class Demo:
    id: str
    task: str  # task type, object, receptacle: "pick_clean_then_place_in_recep-Potato-None-Microwave"
    task_type: str
    goal: str
    human_goals: tuple[str, ...]
    steps: tuple[tuple[str, str], ...]  # (observation, action)

    @property
    def text(self) -> str:
        """The whole trajectory as one text, as the flat baselines index it."""
        lines = [self.goal] + [f"Observation: {o}\nAction: {a}" if o else f"Action: {a}" for o, a in self.steps]
        return "\n".join(lines)

    def record(self) -> TrajectoryRecord:
        steps = [Step(observation=o, action=a) for o, a in self.steps]
        return TrajectoryRecord(type="trajectory", id=self.id, task=self.goal, steps=steps)


@dataclass(frozen=True)
class Query:
    task: str
    task_type: str
    half: int  # 1: the first half of its type's held-out tasks, 2: the second
    texts: dict[str, str]  # query set -> query text


def _order(key: str) -> str:
    """A fixed pseudo-random order that does not depend on the file's order."""
    return hashlib.sha1(key.encode()).hexdigest()


def load(path: Path) -> list[Demo]:
    demos = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        demos.append(
            Demo(
                id=row["id"],
                task=row["game"].rsplit("-", 1)[0],  # without the scene number
                task_type=row["task_type"],
                goal=row["goal"],
                human_goals=tuple(row["human_goals"]),
                steps=tuple((s["observation"], s["action"]) for s in row["steps"]),
            )
        )
    return demos


def split(demos: list[Demo], held_out: int, per_type: int) -> tuple[list[Demo], list[Query]]:
    """(trajectories to ingest, queries): per type, `held_out` tasks (at most half of its tasks) become queries,
    and up to `per_type` trajectories of the other tasks, one task after another, are ingested."""
    by_task: dict[str, list[Demo]] = defaultdict(list)
    for demo in sorted(demos, key=lambda d: _order(d.id)):
        by_task[demo.task].append(demo)
    ingest: list[Demo] = []
    queries: list[Query] = []
    for task_type in TASK_TYPES:
        tasks = sorted((t for t in by_task if by_task[t][0].task_type == task_type), key=_order)
        count = min(held_out, len(tasks) // 2)
        for index, task in enumerate(tasks[:count]):
            demo = by_task[task][0]
            goal = demo.goal.rstrip(".")
            texts = {"goal": demo.goal, "human": demo.human_goals[0], "how_do_i": f"How do I {goal}?"}
            queries.append(Query(task, task_type, 1 if index < (count + 1) // 2 else 2, texts))
        pools = [list(by_task[t]) for t in tasks[count:]]
        chosen: list[Demo] = []
        while len(chosen) < per_type and any(pools):  # round robin: as many tasks as possible
            for pool in pools:
                if pool and len(chosen) < per_type:
                    chosen.append(pool.pop(0))
        ingest.extend(chosen)
    return ingest, queries


def source_id(record_id: str) -> str:
    """The id standardization gives a trajectory's Source (workers/pipeline/standardize.py)."""
    return stable_id("src", SPACE, SourceKind.TRAJECTORY.value, record_id)


def ingest(demos: list[Demo], reuse: bool) -> float:
    """Ingests the trajectories into SPACE; returns seconds spent (0 when reused)."""
    driver = get_driver()
    found, _, _ = driver.execute_query("MATCH (s:Source {space: $s}) RETURN count(s) AS n", s=SPACE)
    if reuse and found[0]["n"] == len(demos):
        return 0.0
    delete_space(driver, get_settings().neo4j.database, SPACE)
    started = time.perf_counter()
    chunks = [demos[i : i + JOB_RECORDS] for i in range(0, len(demos), JOB_RECORDS)]
    for chunk in tqdm(chunks, desc=f"ingest {len(demos)} trajectories", unit="job"):
        for attempt in range(3):  # a worker restarted mid-job fails it: submit again (writes are idempotent)
            status = wait_for_job(get_job_store(), submit_ingest(SPACE, [d.record() for d in chunk]), timeout_s=1800)
            if not status.error:
                break
            if attempt == 2:
                raise RuntimeError(status.error)
    return time.perf_counter() - started


def scores(relevant: Sequence[bool]) -> dict[str, float]:
    top = list(relevant[:5])
    return {
        "P@1": float(bool(top) and top[0]),
        "R@5": float(any(top)),
        "P@5": sum(top) / 5,
    }


def engram_relevance(result: RecallResult, type_of_source: dict[str, str], task_type: str) -> dict[str, list[bool]]:
    """Per item: a prescription of a trajectory of the type (strict), and any item proven by such a trajectory."""
    strict, any_kind = [], []
    for item in result.items:
        types = {type_of_source.get(p.source_id) for p in item.provenance}
        of_type = task_type in types
        strict.append(item.kind is ItemKind.PRESCRIPTION and of_type)
        any_kind.append(of_type)
    return {"engram": strict, "engram_any_item": any_kind}


def aggregate(rows: list[tuple[Query, dict[str, float]]]) -> dict[str, Any]:
    def mean(selected: list[dict[str, float]]) -> dict[str, float]:
        return {m: round(100 * statistics.fmean(r[m] for r in selected), 1) for m in selected[0]} | {
            "queries": len(selected)
        }

    out: dict[str, Any] = {"all": mean([m for _, m in rows])}
    for half in (1, 2):
        out[f"half{half}"] = mean([m for q, m in rows if q.half == half])
    out["by_type"] = {t: mean(sel) for t in TASK_TYPES if (sel := [m for q, m in rows if q.task_type == t])}
    return out


def trace_summary(result: RecallResult, type_of_source: dict[str, str]) -> dict[str, Any]:
    """What the engine did with one query: its route, and the first items (kind, type, text)."""
    first = [
        {
            "kind": item.kind.value,
            "type": sorted({type_of_source.get(p.source_id, "?") for p in item.provenance}),
            "score": round(item.score, 3),
            "text": item.text[:120],
        }
        for item in result.items[:3]
    ]
    seed = next((s.detail for s in result.trace if s.step == "seed"), {})
    return {"memory_types": [m.value for m in result.memory_types], "seed_hits": seed.get("hits"), "first": first}


def main() -> None:
    parser = argparse.ArgumentParser(description="procedural recall on ALFWorld expert demonstrations")
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT, help="built by bench.procedural_data")
    parser.add_argument("--held-out", type=int, default=20, help="held-out tasks per type (at most half)")
    parser.add_argument("--per-type", type=int, default=100, help="trajectories ingested per type")
    parser.add_argument("--limit", type=int, default=0, help="evaluate only the first N queries (quick look)")
    parser.add_argument("--reuse", action="store_true", help="keep the space if it holds every trajectory")
    parser.add_argument("--name", default="", help="results file name under bench/results/ (default procedural)")
    args = parser.parse_args()

    if not args.data.exists():
        raise SystemExit(f"{args.data} is missing: build it with python -m bench.procedural_data (bench/README.md)")
    demos, queries = split(load(args.data), args.held_out, args.per_type)
    if args.limit:
        queries = queries[:: max(1, len(queries) // args.limit)][: args.limit]  # a spread over the types
    ingest_s = ingest(demos, args.reuse)
    steps = sum(len(d.steps) for d in demos)

    embedder = get_embedder()
    texts = [d.text for d in demos]
    index = FlatIndex([d.id for d in demos], texts, embedder.encode(texts))
    type_of_demo = {d.id: d.task_type for d in demos}
    type_of_source = {source_id(d.id): d.task_type for d in demos}
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    settle_heap()

    systems = ("engram", "engram_any_item", *FLAT)
    rows: dict[str, dict[str, list[tuple[Query, dict[str, float]]]]] = {
        s: {system: [] for system in systems} for s in QUERY_SETS
    }
    routes: dict[str, Counter[str]] = {s: Counter() for s in QUERY_SETS}
    first_kind: dict[str, Counter[str]] = {s: Counter() for s in QUERY_SETS}
    traces: dict[str, list[dict[str, Any]]] = {s: [] for s in QUERY_SETS}
    for query_set in QUERY_SETS:
        vectors = embedder.encode([q.texts[query_set] for q in queries])
        for query, vector in tqdm(list(zip(queries, vectors, strict=True)), desc=query_set, unit="q"):
            text = query.texts[query_set]
            flat = {"bm25_stem": index.bm25(text), "dense": index.dense(vector), "hybrid": index.hybrid(text, vector)}
            for system, ranking in flat.items():
                relevant = [type_of_demo[d] == query.task_type for d in ranking[:5]]
                rows[query_set][system].append((query, scores(relevant)))
            result = engine.recall(RecallRequest(space=SPACE, query=text, token_budget=4096, limit=10))
            for system, relevant in engram_relevance(result, type_of_source, query.task_type).items():
                rows[query_set][system].append((query, scores(relevant)))
            routes[query_set]["+".join(m.value for m in result.memory_types)] += 1
            first_kind[query_set][result.items[0].kind.value if result.items else "nothing"] += 1
            if len(traces[query_set]) < 6:
                summary = trace_summary(result, type_of_source)
                traces[query_set].append({"query": text, "type": query.task_type} | summary)

    by_set = {s: {system: aggregate(r) for system, r in rows[s].items()} for s in QUERY_SETS}
    main_set = by_set["goal"]
    results: dict[str, Any] = {
        system: {"P@1": main_set[system]["all"]["P@1"], "R@5": main_set[system]["all"]["R@5"]} for system in systems
    }
    results |= {
        "source": SOURCE,
        "metric_note": (
            "queries: held-out ALFWorld tasks' goal text; relevant: a prescription (engram) or a whole trajectory "
            "(flat) of the query's task type; P@1 first item relevant, R@5 a relevant item in the first 5, in %. "
            "engram_any_item counts any item kind proven by a same-type trajectory (diagnostic)."
        ),
        "counts": {
            "trajectories_ingested": len(demos),
            "steps_ingested": steps,
            "queries_per_set": len(queries),
            "task_types": len({q.task_type for q in queries}),
            "ingested_by_type": dict(Counter(d.task_type for d in demos)),
            "queries_by_type": dict(Counter(q.task_type for q in queries)),
        },
        "ingest_s": round(ingest_s, 1),
        "ingest_steps_per_s": round(steps / ingest_s, 1) if ingest_s else None,
        "query_sets": by_set,
        "router": {s: dict(c) for s, c in routes.items()},
        "engram_first_item_kind": {s: dict(c) for s, c in first_kind.items()},
        "example_traces": traces,
    }
    name = args.name or (f"procedural_first{args.limit}" if args.limit else "procedural")
    if not ingest_s:  # the space reused: the last timed ingestion stands (if it was of as many trajectories)
        earlier = last_timed_ingest(name, ["ingest_s", "ingest_steps_per_s", "counts"])
        if earlier.get("counts", {}).get("steps_ingested") == steps and earlier.get("ingest_s"):
            results |= {key: earlier[key] for key in ("ingest_s", "ingest_steps_per_s", "ingest_measured_at")}
    print(write_result(name, results))
    for query_set in QUERY_SETS:
        for system in systems:
            row = by_set[query_set][system]
            halves = " ".join(f"h{h} P@1 {row[f'half{h}']['P@1']:5.1f} R@5 {row[f'half{h}']['R@5']:5.1f}" for h in "12")
            print(f"{query_set:9s} {system:16s} P@1 {row['all']['P@1']:5.1f} R@5 {row['all']['R@5']:5.1f} | {halves}")
        print(f"{query_set:9s} routes {dict(routes[query_set])} first item {dict(first_kind[query_set])}")


if __name__ == "__main__":
    main()
