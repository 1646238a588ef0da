"""Import from an export with vectors (graph/vector_import.py, `engram import --bulk FILE.vectors.jsonl`) at
increasing sizes, seconds and rates per stage, recall on each imported space, and a per-stage extrapolation to 1M.

The synthetic graph (bench/synthetic_graph.py: `--base` propositions with their episodes, sources and concepts,
vectors clustered by concept) is written once with the ingest writer (`MemoryWriter`, no model: the write stage of
ingestion, timed as the write-path figure), exported to a vectors file (graph/vector_export.py) and the space
deleted. A larger size is that file repeated (`tile`): each copy's ids, keys and external ids suffixed and its
vectors moved by noise, so the graph keeps the base's shape per proposition (an approximation of a larger synthetic
graph, not one written by the write path). Each size is imported into an empty space, reporting seconds and rates
per stage: validate, nodes (every vector inserted into the shared HNSW index at commit), relationships, indexes (a
space of `DEDICATE_FROM` propositions or more: its own labels set on every proposition, episode and concept, each
inserted into the space's own vector and full-text indexes, all awaited online). Then recall p50/p95 on that space
(noisy copies of the first facts' vectors, as bench/recall_latency.py), and on the largest once more after
`--settle` seconds. The 1M figure is an extrapolation per stage from the two largest sizes (t ~ n^k, k fitted), not
a measurement. Needs the stack running. Adds `from_export_with_vectors_sizes` to bench/results/import.json (other
entries kept).

    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.import_vectors --sizes 10000 30000 100000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from bench.common import RESULTS_DIR, git_commit, machine
from bench.recall_latency import _lookup, percentile
from bench.synthetic_graph import SyntheticGraph
from engram.embedder_identity import EmbedderIdentity, identity_of
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.memory_writer import MemoryWriter
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from graph.space_indexes import DEDICATE_FROM
from graph.vector_export import VectorExporter
from graph.vector_format import decode_vector, encode_vector
from graph.vector_import import NODE_BATCH, VectorImporter

MILLION = 1_000_000
QUERIES = 40
WARMUP = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000], help="propositions per import")
    parser.add_argument(
        "--base", type=int, default=10_000, help="propositions the write path writes (sizes: multiples)"
    )
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--settle", type=int, default=120, help="seconds between the two recall passes")
    parser.add_argument("--keep", action="store_true", help="keep the largest space afterwards")
    parser.add_argument("--reuse-base", action="store_true", help="the base export from an earlier run, if there")
    args = parser.parse_args()
    if any(size % args.base for size in args.sizes):
        parser.error("every size must be a multiple of --base")
    settings = get_settings()
    driver, database = get_driver(), settings.neo4j.database
    identity = identity_of(settings.embedding)
    folder = Path(tempfile.gettempdir())
    base_space = f"bench-import-vectors-{args.base}"
    base = folder / f"{base_space}-base.vectors.jsonl"
    reused = args.reuse_base and base.exists()
    write_s = None if reused else write_base(driver, database, identity, base_space, args.base, base)

    runs: dict[str, dict[str, Any]] = {}
    recalls: dict[str, dict[str, Any]] = {}  # size -> recall on the space its last import left
    largest = max(args.sizes)
    for size in sorted(args.sizes):
        space = f"bench-import-vectors-{size}"
        path = folder / f"{space}.vectors.jsonl"
        tile(base, path, size // args.base, space)
        delete_space(driver, database, space)
        runs[str(size)] = import_once(VectorImporter(driver, database, space, identity, args.writers), path)
        print(json.dumps({"size": size, **runs[str(size)]}), flush=True)
        recalls[str(size)] = {"right_after_import": recall_latency(driver, database, space, args.base)}
        if size != largest:
            delete_space(driver, database, space)
        path.unlink()
        partial = {"sizes": runs, "recall": recalls, "partial": "written after each size; the run goes on"}
        save({**partial, **about(args, write_s)})

    space = f"bench-import-vectors-{largest}"
    recall = recalls[str(largest)]
    time.sleep(args.settle)
    recall[f"after_{args.settle}_s"] = recall_latency(driver, database, space, args.base)
    if not args.keep:
        delete_space(driver, database, space)

    result = {
        "sizes": runs,
        "recall": recalls,
        "recall_on_largest": {"propositions": largest, **recall},
        "extrapolation_1m": extrapolate(runs),
        **about(args, write_s),
    }
    save(result)
    print(json.dumps(result, indent=2))


def about(args: argparse.Namespace, write_s: float | None) -> dict[str, Any]:
    """What a result records of the run besides its figures."""
    return {
        "base_ingest_write_path": None
        if write_s is None
        else {
            "propositions": args.base,
            "seconds": round(write_s, 1),
            "propositions_per_s": round(args.base / write_s, 1),
        },
        "dedicate_from": DEDICATE_FROM,
        "node_batch": NODE_BATCH,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "writers": args.writers,
        "commit": git_commit(),
        "command": "python -m bench.import_vectors " + " ".join(sys.argv[1:]),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
    }


def save(result: dict[str, Any]) -> None:
    """bench/results/import.json with this run as `from_export_with_vectors_sizes`, its other entries kept."""
    target = RESULTS_DIR / "import.json"
    stored = json.loads(target.read_text()) if target.exists() else {}
    stored["from_export_with_vectors_sizes"] = result
    target.write_text(json.dumps(stored, indent=2) + "\n")


def write_base(
    driver: neo4j.Driver, database: str, identity: EmbedderIdentity, space: str, size: int, path: Path
) -> float:
    """The base graph written by the ingest write path and exported to `path`; the seconds the writes took."""
    delete_space(driver, database, space)
    graph = SyntheticGraph(space, size, seed=size)
    started = time.perf_counter()
    graph.write(MemoryWriter(driver, database, identity), driver, database)
    seconds = time.perf_counter() - started
    VectorExporter(driver, database).write(space, identity, path)
    delete_space(driver, database, space)
    return seconds


def tile(base: Path, target: Path, copies: int, space: str) -> None:
    """`base` repeated `copies` times as an export of `space`: copy r > 0 suffixes every id (and the properties and
    relationship ends naming one), concept key and name and external id with `~r`, and adds noise to its vectors
    (norm ~0.5 before normalising) so no two copies' vectors coincide."""
    rng = np.random.default_rng(copies)
    with base.open() as source:
        header = json.loads(source.readline())
        lines = [json.loads(line) for line in source if line.strip()]
    old_space = header["space"]
    ids = {row["id"] for row in lines if row["label"] != "Space"}
    dimensions = int(header["dimensions"])
    with target.open("w") as out:
        out.write(json.dumps({**header, "space": space}) + "\n")
        for copy in range(copies):
            for row in lines:
                if row["label"] == "Space" and copy:
                    continue
                out.write(json.dumps(_copied(row, copy, ids, old_space, space, dimensions, rng)) + "\n")


def _copied(
    row: dict[str, Any], copy: int, ids: set[str], old: str, space: str, dimensions: int, rng: np.random.Generator
) -> dict[str, Any]:
    def named(value: Any) -> Any:
        if isinstance(value, str):
            return space if value == old else (f"{value}~{copy}" if copy and value in ids else value)
        return [named(v) for v in value] if isinstance(value, list) else value

    props = {key: named(value) for key, value in row["props"].items()}
    if copy:
        for key in ("key", "name", "external_id"):
            if isinstance(props.get(key), str) and row["label"] != "Space":
                props[key] = f"{props[key]}~{copy}"
    copied = {**row, "id": named(row["id"]), "props": props,
              "out": [[kind, label, named(end), rel] for kind, label, end, rel in row.get("out", [])]}  # fmt: skip
    if copy and row.get("embedding"):
        vector = decode_vector(row["embedding"], dimensions)
        vector = vector + 0.5 * rng.standard_normal(dimensions).astype(np.float32) / math.sqrt(dimensions)
        copied["embedding"] = encode_vector(vector / np.linalg.norm(vector))
    return copied


def import_once(importer: VectorImporter, path: Path) -> dict[str, Any]:
    load_1m = os.getloadavg()[0]
    started = time.perf_counter()
    report = importer.run(path)
    seconds = time.perf_counter() - started
    nodes = sum(report.nodes.values())
    vectors = sum(n for label, n in report.nodes.items() if label in ("Episode", "Proposition", "Concept"))
    stage = report.seconds
    propositions = report.nodes.get("Proposition", 0)
    return {
        "seconds": round(seconds, 1),
        "propositions_per_s": round(propositions / seconds, 1),
        "stage_seconds": stage,
        "nodes_per_s_node_stage": round(nodes / stage["nodes"], 1),
        "vectors_per_s_node_stage": round(vectors / stage["nodes"], 1),
        "relationships_per_s": round(report.relationships / stage["relationships"], 1),
        "vectors_per_s_index_stage": round(vectors / stage["indexes"], 1),
        "node_counts": report.nodes,
        "relationships": report.relationships,
        "own_indexes_online": report.dedicated,
        "file_bytes": path.stat().st_size,
        "load_average_1m_at_start": round(load_1m, 1),
    }


def recall_latency(driver: neo4j.Driver, database: str, space: str, base: int) -> dict[str, float]:
    """p50/p95 ms of recall on `space` (queries: the base graph's first facts, which copy 0 keeps)."""
    graph = SyntheticGraph(space, base, seed=base)
    texts, vectors = graph.first_facts(QUERIES)
    queries = [" ".join(t.split()[3:9]) for t in texts]
    noisy = vectors + 0.3 * np.random.default_rng(1).standard_normal(vectors.shape).astype(np.float32)
    embed = partial(_lookup, dict(zip(queries, noisy / np.linalg.norm(noisy, axis=1, keepdims=True), strict=True)))
    engine = RecallEngine(driver, database, embed, lambda text: len(text.split()))
    for query in queries[:WARMUP]:
        engine.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
    latencies = []
    for query in queries:
        mark = time.perf_counter()
        engine.recall(RecallRequest(space=space, query=query, limit=25, hop_limit=2))
        latencies.append(1000 * (time.perf_counter() - mark))
    return {"p50_ms": round(percentile(latencies, 50), 1), "p95_ms": round(percentile(latencies, 95), 1)}


def extrapolate(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The current path's seconds per stage at 1M propositions, from its two largest sizes: t = t2 (1M / n2)^k with k
    fitted on the pair (1 where the stage did not grow)."""
    sizes = sorted(int(size) for size in runs)
    if len(sizes) < 2:
        return {}
    n1, n2 = sizes[-2:]
    first, second = runs[str(n1)]["stage_seconds"], runs[str(n2)]["stage_seconds"]
    stages: dict[str, Any] = {}
    for stage, t2 in second.items():
        t1 = first[stage]
        k = math.log(t2 / t1) / math.log(n2 / n1) if t1 > 0 and t2 > t1 else 1.0
        stages[stage] = {"exponent": round(k, 2), "seconds_1m": round(t2 * (MILLION / n2) ** k)}
    total = sum(s["seconds_1m"] for s in stages.values())
    return {
        "label": f"EXTRAPOLATION, not a measurement: per stage from {n1} and {n2} propositions, t ~ n^k",
        "stages": stages,
        "minutes_1m": round(total / 60, 1),
    }


if __name__ == "__main__":
    main()
