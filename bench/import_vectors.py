"""Import from an export with vectors (graph/vector_import.py, `engram import --bulk FILE.vectors.jsonl`) against the
ingest write path on the same graph, in one run.

The synthetic graph (bench/synthetic_graph.py: `--propositions` with their episodes, sources and concepts, vectors
clustered by concept) is written with the ingest writer (`MemoryWriter`, no model: the write stage of ingestion and
of `engram import`), exported to a vectors file (graph/vector_export.py), the space deleted, and the file imported
into it (validation, nodes, relationships, the space's own indexes online); then recall p50/p95 on the imported
space (queries: noisy copies of the first facts' vectors, as bench/recall_latency.py). Reports seconds and
propositions/s per stage, the ratio import / write path, peak RSS of this process, and a linear extrapolation to
1M propositions (an estimate, not a measurement). Needs the stack running. Adds `from_export_with_vectors` to
bench/results/import.json (the import from source text stays as bench/import.py wrote it).

    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.import_vectors --propositions 10000
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import RESULTS_DIR, git_commit, machine
from bench.recall_latency import _lookup, percentile
from bench.synthetic_graph import SyntheticGraph
from engram.embedder_identity import identity_of
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.memory_writer import MemoryWriter
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from graph.vector_export import VectorExporter
from graph.vector_import import VectorImporter

MILLION = 1_000_000
QUERIES = 40
WARMUP = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--propositions", type=int, default=10_000)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the space (and the file) afterwards")
    args = parser.parse_args()
    settings = get_settings()
    driver, database = get_driver(), settings.neo4j.database
    identity = identity_of(settings.embedding)
    space = f"bench-import-vectors-{args.propositions}"
    delete_space(driver, database, space)
    graph = SyntheticGraph(space, args.propositions, seed=args.propositions)

    started = time.perf_counter()
    graph.write(MemoryWriter(driver, database, identity), driver, database)
    write_s = time.perf_counter() - started

    path = Path(tempfile.gettempdir()) / f"{space}.vectors.jsonl"
    started = time.perf_counter()
    nodes = VectorExporter(driver, database).write(space, identity, path)
    export_s = time.perf_counter() - started
    delete_space(driver, database, space)

    started = time.perf_counter()
    report = VectorImporter(driver, database, space, identity, args.writers).run(path)
    import_s = time.perf_counter() - started

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

    rate = args.propositions / import_s
    write_rate = args.propositions / write_s
    result: dict[str, Any] = {
        "propositions": args.propositions,
        "nodes": nodes,
        "node_counts": report.nodes,
        "relationships": report.relationships,
        "file_bytes": path.stat().st_size,
        "import_seconds": round(import_s, 1),
        "import_stage_seconds": report.seconds,
        "import_propositions_per_s": round(rate, 1),
        "own_indexes_online": report.dedicated,
        "baseline_ingest_write_path_seconds": round(write_s, 1),
        "baseline_ingest_write_path_propositions_per_s": round(write_rate, 1),
        "ratio_import_to_write_path_throughput": round(rate / write_rate, 2),
        "export_seconds": round(export_s, 1),
        "recall_after_import_p50_ms": round(percentile(latencies, 50), 1),
        "recall_after_import_p95_ms": round(percentile(latencies, 95), 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "extrapolation_1m": {
            "label": "EXTRAPOLATION, not a measurement: linear in propositions from this run",
            "import_minutes": round(MILLION / rate / 60, 1),
        },
        "writers": args.writers,
        "commit": git_commit(),
        "command": f"python -m bench.import_vectors --propositions {args.propositions} --writers {args.writers}",
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
    }
    target = RESULTS_DIR / "import.json"
    stored = json.loads(target.read_text()) if target.exists() else {}
    runs = stored.get("from_export_with_vectors", {})
    runs = runs if isinstance(runs, dict) and "propositions" not in runs else {}
    runs[str(args.propositions)] = result
    stored["from_export_with_vectors"] = runs
    target.write_text(json.dumps(stored, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if not args.keep:
        delete_space(driver, database, space)
        path.unlink()


if __name__ == "__main__":
    main()
