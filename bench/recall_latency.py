"""Recall latency on synthetic graphs of 10k / 100k (/ 1M) propositions, without a generative model.

For each size: p50 / p95 of a full recall through the space's own indexes (a space this large gets them
at consolidation, graph/space_indexes.py) and, in the same run, through the shared ones; query vectors are
precomputed in the synthetic vector space (embedding a query with MiniLM adds about 5-10 ms on top). Also the mean
time per recall step (where the time goes) and, as a same-run baseline, a bare top-10 shared vector-index query.
Needs the stack running (`make up`). Writes bench/results/<name>.json and <name>.png (`--name`, default
recall_latency: a run over other sizes can be kept apart from the committed one).

    ~/.cache/engram/venv/bin/python -m bench.recall_latency --sizes 10000 100000 [--reuse]

`--mode fresh` and `--mode restart` measure recall on LongMemEval spaces ingested a moment ago and right after a
restart, against settled spaces and a warm engine in the same run (bench/recall_first.py).
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from functools import partial

import neo4j
import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm

from bench import recall_first
from bench.common import RESULTS_DIR, git_commit, write_result
from bench.index_settle import Settling, wait_for_online_indexes, wait_until_settled
from bench.server_memory import server_memory
from bench.synthetic_graph import SyntheticGraph
from engram.embedding import get_embedder
from engram.ids import stable_id
from engram.runtime import settle_heap
from engram.settings import get_settings
from graph.admin import delete_space
from graph.cypher import load
from graph.driver import get_driver
from graph.memory_writer import MemoryWriter
from graph.params import vector_param
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from graph.recall.neo4j_searcher import SHARED_VECTOR_INDEXES
from graph.space_indexes import dedicate

QUERIES = 200
SETTLE_PROBES = 50
WARMUP = 20
STEPS = (
    "route",
    "seed",
    "abstract",
    "propagate",
    "expand",
    "rank",
    "context",
    "pages",
    "when",
    "participants",
    "controller",
    "hop",
    "mmr",
    "newer",  # newer restatements first
    "latest",  # latest version first
    "rerank",  # rerank and prune
)


def _lookup(vectors: dict[str, NDArray[np.float32]], texts: Sequence[str]) -> NDArray[np.float32]:
    return np.stack([vectors[text] for text in texts])


def _vector_query_ms(driver: neo4j.Driver, space: str, vector: NDArray[np.float32]) -> float:
    """One bare top-10 query of the shared proposition vector index for the space (the same-run baseline)."""
    started = time.perf_counter()
    driver.execute_query(
        load("recall/dense_propositions"),
        space=space,
        index=SHARED_VECTOR_INDEXES["propositions"],
        vector=vector_param(vector),
        fetch=10,
        k=10,
        as_of=None,
        known_at=None,
        speakers=None,
    )
    return 1000 * (time.perf_counter() - started)


def _vector_query_p95(driver: neo4j.Driver, space: str, vectors: Sequence[NDArray[np.float32]]) -> float:
    return round(percentile([_vector_query_ms(driver, space, vector) for vector in vectors], 95), 2)


def _entry_name(driver: neo4j.Driver, size: int) -> str:
    """The size, or `<size>_beside_<larger>` when the database also holds a complete synthetic space at least ten
    times larger (a small tenant sharing the vector indexes with a large one)."""
    records, _, _ = driver.execute_query("MATCH (s:Space) WHERE s.id STARTS WITH 'synthetic-' RETURN s.id AS id")
    larger = sorted(
        (int(suffix) for r in records if (suffix := r["id"].removeprefix("synthetic-")).isdigit()), reverse=True
    )
    for other in (n for n in larger if n >= 10 * size):
        counted, _, _ = driver.execute_query(
            "MATCH (p:Proposition {space: $space}) RETURN count(p) AS n", space=f"synthetic-{other}"
        )
        if counted[0]["n"] == other:  # a build stopped part-way is not the large tenant it is named after
            return f"{size}_beside_{other}"
    return str(size)


def percentile(values: list[float], q: int) -> float:
    return float(np.percentile(np.asarray(values), q))


def _result_name(name: str) -> str:
    """A file name inside bench/results (letters, digits, '_', '-'), never a path."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,80}", name):
        raise argparse.ArgumentTypeError(f"{name!r}: use letters, digits, '_' and '-' only")
    return name


def main() -> None:
    modes = argparse.ArgumentParser(add_help=False)
    modes.add_argument("--mode", choices=("synthetic", "fresh", "restart"), default="synthetic")
    chosen, rest = modes.parse_known_args()
    if chosen.mode != "synthetic":
        recall_first.main(rest, chosen.mode)
        return
    parser = argparse.ArgumentParser(description="recall latency on synthetic graphs")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument(
        "--reuse", action="store_true", help="reuse a synthetic space already written (resume one written part-way)"
    )
    parser.add_argument(
        "--own-indexes-below",
        type=int,
        default=1_000_000,
        help="sizes from this one up are measured through the shared indexes only: building a 1M space's own "
        "indexes takes hours on this machine (default 1000000)",
    )
    parser.add_argument(
        "--settle-max-s",
        type=float,
        default=1800.0,
        help="wait up to this long for each space's vector index to settle after its load (bench/index_settle.py); "
        "0: do not wait (the result then says settled: false)",
    )
    parser.add_argument(
        "--name", default="recall_latency", type=_result_name, help="result files: bench/results/<name>.json and .png"
    )
    args = parser.parse_args()

    driver = get_driver()
    database = get_settings().neo4j.database
    embedder = get_embedder()
    results: dict[str, object] = {}
    for size in args.sizes:
        space = f"synthetic-{size}"
        # Each size is its own tenant with its own topics (seeded by its size): graphs sharing a seed would share
        # their topic vectors, and the smaller one would be crowded out of its own neighbourhood in the shared
        # vector index (a case the crowding tests cover for correctness).
        graph = SyntheticGraph(space, size, seed=size)
        texts, vectors = graph.first_facts(QUERIES)
        records, _, _ = driver.execute_query(
            "MATCH (p:Proposition {space: $s}) WITH count(p) AS n "
            "OPTIONAL MATCH (first:Proposition {space: $s, id: $first}) RETURN n, first.text AS text",
            s=space,
            first=stable_id("prop", space, "0"),
        )
        same_graph = args.reuse and records[0]["text"] == texts[0]
        if not (same_graph and records[0]["n"] == size):
            if not same_graph:  # a space of the same graph that stopped part-way is resumed, not rebuilt
                delete_space(driver, database, space)
            started = time.perf_counter()
            graph.write(MemoryWriter(driver, database), driver, database)
            build_s = time.perf_counter() - started
        else:
            build_s = float("nan")
        # As consolidation does for a space this large: indexes of its own (graph/space_indexes.py).
        started = time.perf_counter()
        own_indexes = size < args.own_indexes_below and dedicate(driver, database, space)
        dedicate_s = time.perf_counter() - started
        # Queries are noisy versions of the first stored facts (words from the middle of their text), in the
        # synthetic graph's own vector space (its vectors are not MiniLM's): the engine gets an embedding function
        # that maps each query text to its vector.
        queries = [" ".join(t.split()[3:9]) for t in texts]
        noisy = vectors + 0.3 * np.random.default_rng(size + 1).standard_normal(vectors.shape).astype(np.float32)
        query_vectors = dict(zip(queries, noisy / np.linalg.norm(noisy, axis=1, keepdims=True), strict=True))
        embed = partial(_lookup, query_vectors)
        wait_for_online_indexes(driver, database)
        probe = partial(_vector_query_p95, driver, space, [query_vectors[q] for q in queries[:SETTLE_PROBES]])
        settling = wait_until_settled(probe, max_wait_s=args.settle_max_s) if args.settle_max_s else Settling()
        print(
            f"{size}: index {'settled' if settling.settled else 'NOT settled'} after {settling.waited_s} s "
            f"(bare vector query p95 by probe round: {settling.probe_p95_ms} ms)"
        )
        # Its own indexes only where this run gave them (a --reuse of a space dedicated by an earlier run must not
        # measure them while the result says shared).
        engine = RecallEngine(
            driver, database, embed, embedder.count_tokens, config=RecallConfig(own_indexes=own_indexes)
        )
        # The same recall through the shared indexes, as before the space had its own: measured alongside.
        shared = RecallEngine(driver, database, embed, embedder.count_tokens, config=RecallConfig(own_indexes=False))
        for query in queries[:WARMUP]:  # plan caches and page cache warm up first; not measured
            engine.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
            shared.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
        settle_heap()  # as the API server does once loaded (engram/runtime.py)
        latencies: list[float] = []
        shared_latencies: list[float] = []
        baseline: list[float] = []
        steps: dict[str, list[float]] = defaultdict(list)
        for query in tqdm(queries, desc=f"recall {size}", unit="q"):
            started = time.perf_counter()
            shared.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
            shared_latencies.append(1000 * (time.perf_counter() - started))
            started = time.perf_counter()
            result = engine.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
            latencies.append(1000 * (time.perf_counter() - started))
            per_step: dict[str, float] = defaultdict(float)  # a step may run more than once a recall (rank, hop)
            for step in result.trace:
                per_step[step.step.split(" after")[0].split(" ")[0]] += step.ms
            for name in STEPS:
                steps[name].append(per_step.get(name, 0.0))
            baseline.append(_vector_query_ms(driver, space, query_vectors[query]))
        memory_after = server_memory(driver, database)  # the server's memory once the recalls ran
        entry = _entry_name(driver, size)  # counts the larger spaces' propositions: once per size
        results[entry] = {
            "recall_p50_ms": round(percentile(latencies, 50), 1),
            "recall_p95_ms": round(percentile(latencies, 95), 1),
            "own_indexes": own_indexes,
            "shared_index_recall_p50_ms": round(percentile(shared_latencies, 50), 1),
            "shared_index_recall_p95_ms": round(percentile(shared_latencies, 95), 1),
            "ratio_p95_recall_to_shared_index_recall": round(
                percentile(latencies, 95) / percentile(shared_latencies, 95), 2
            ),
            "vector_query_p50_ms": round(percentile(baseline, 50), 2),
            "vector_query_p95_ms": round(percentile(baseline, 95), 2),
            "ratio_p95_recall_to_vector_query": round(percentile(latencies, 95) / percentile(baseline, 95), 1),
            "mean_ms_per_step": {name: round(statistics.fmean(ms), 2) for name, ms in steps.items()},
            "p95_ms_per_step": {name: round(percentile(ms, 95), 2) for name, ms in steps.items()},
            "build_s": round(build_s, 1),
            "own_indexes_s": round(dedicate_s, 1),
            "queries": len(queries),
            "neo4j_memory_after_recalls": memory_after,
            "settled": settling.settled,
            "settle_wait_s": settling.waited_s,
            "settle_probe_p95_ms": settling.probe_p95_ms,
            "commit": git_commit(),
        }
        print(entry, results[entry])
    path = write_result(args.name, results)
    chart(results, args.name)
    print(path)


def chart(results: dict[str, object], name: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    sizes = list(results)
    bottom = np.zeros(len(sizes))
    steps = sorted({n for r in results.values() for n in r["mean_ms_per_step"]})  # type: ignore[index]
    colours = plt.get_cmap("tab20")  # more steps than the default cycle's 10 colours
    for number, step in enumerate(steps):
        values = np.array([results[s]["mean_ms_per_step"].get(step, 0.0) for s in sizes])  # type: ignore[index]
        ax.bar(sizes, values, bottom=bottom, label=step, color=colours(number))
        bottom += values
    ax.set_ylabel("mean ms per recall")
    ax.set_xlabel("propositions in the space")
    ax.set_title("Where recall time goes (synthetic graphs, 2-core machine)")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(RESULTS_DIR / f"{name}.png", dpi=120)


if __name__ == "__main__":
    main()
