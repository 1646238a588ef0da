"""Bulk import (`engram import`) against the ingest pipeline on the same synthetic conversations, in one run.

Generates `--conversations` invented chats (bench/synthetic_conversations.py), loads them with the bulk importer
(workers/bulk_import.py, the code behind `engram import`) into one space and through the Celery worker (jobs of
`--batch` records, all queued at once, as `engram ingest` of those files would) into another; reports seconds,
propositions per second, the ratio, where the import's time went, and an extrapolation to 1M propositions (an
estimate, not a measurement). The import runs once per embedding backend (`--backends`, bench/embedding.py's
names, each into a space of its own, the order reversed in every other `--rounds` round); the first backend's
import stands for the headline figures. Needs the stack running (`make up`). Writes bench/results/import.json.

    ~/.cache/engram/venv/bin/python -m bench.import --conversations 40
    ~/.cache/engram/venv/bin/python -m bench.import --conversations 20 --backends onnx-fp32,torch --no-ingest
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tqdm import tqdm

from bench.common import git_commit, write_result
from bench.embedding import BACKENDS
from bench.job_progress import wait_for_jobs
from bench.synthetic_conversations import ConversationGenerator
from engram.embedding import Embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.settings import EmbeddingSettings, get_settings
from graph.admin import delete_space
from graph.concept_keys.tries import create_key_namer
from graph.driver import get_driver
from workers.bulk_import import DEFAULT_BATCH, BulkImporter, ImportReport
from workers.resources import get_redis
from workers.tasks.ingest import submit_ingest

MILLION = 1_000_000
# tests/e2e/test_bulk_import.py: import and ingest of one corpus give identical node and relationship sets.
SAME_GRAPH_TEST = "tests/e2e/test_bulk_import.py"


def counts(space: str) -> dict[str, int]:
    records, _, _ = get_driver().execute_query(
        "MATCH (n {space: $space}) RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    return {str(r["label"]): int(r["n"]) for r in records}


def run_import(space: str, records: list[Any], batch: int, writers: int, embedder: Embedder) -> ImportReport:
    importer = BulkImporter(
        get_driver(), get_settings().neo4j.database, space, create_extractor(ExtractionSettings(), create_key_namer),
        embedder.encode, get_redis(), writers=writers,
    )  # fmt: skip
    with tqdm(total=len(records), desc="import", unit="record") as bar:
        return importer.run(records, batch, lambda done, _: bar.update(done - bar.n))


def run_ingest(space: str, records: list[Any], batch: int) -> float:
    started = time.perf_counter()
    wait_for_jobs([submit_ingest(space, records[i : i + batch]) for i in range(0, len(records), batch)], "ingest jobs")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--conversations", type=int, default=40, help="invented chats of 4 sessions x 20 turns")
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="records per import batch / ingest job")
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep both spaces in Neo4j afterwards")
    parser.add_argument("--backends", default="onnx-fp32,torch", help="from " + ", ".join(BACKENDS))
    parser.add_argument("--rounds", type=int, default=1, help="imports per backend (order reversed each round)")
    parser.add_argument("--no-ingest", action="store_true", help="skip the comparison with the worker's ingest")
    parser.add_argument("--name", default="import", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()
    names = [n for n in args.backends.split(",") if n]
    if not names or any(n not in BACKENDS for n in names):
        parser.error(f"--backends: names from {', '.join(BACKENDS)}")

    records = validate_records(ConversationGenerator(seed=23).conversations(args.conversations), limit=None)
    turns = sum(len(s.turns) for r in records for s in r.sessions)  # type: ignore[union-attr]
    print(f"{len(records)} conversations, {turns} turns")
    embedders = {name: Embedder(EmbeddingSettings(**BACKENDS[name])) for name in names}
    for embedder in embedders.values():
        embedder.encode(["warm up"] * 8)
    stamp = int(time.time())
    imports: dict[str, list[ImportReport]] = {name: [] for name in names}
    import_space = ""
    for round_ in range(args.rounds):
        for name in names if round_ % 2 == 0 else names[::-1]:
            space = f"bench-import-{stamp}-{name}-{round_}"
            imports[name].append(run_import(space, records, args.batch, args.writers, embedders[name]))
            if name == names[0] and not import_space:
                import_space = space  # kept for the counts below
            elif not args.keep:
                delete_space(get_driver(), get_settings().neo4j.database, space)
    report = imports[names[0]][0]
    ingest_space = f"bench-import-ingest-{stamp}"
    ingest_s = 0.0 if args.no_ingest else run_ingest(ingest_space, records, args.batch)
    imported = counts(import_space)
    ingested = {} if args.no_ingest else counts(ingest_space)
    propositions = imported.get("Proposition", 0)
    rate = propositions / report.seconds
    ingest_rate = ingested.get("Proposition", 0) / ingest_s if ingest_s else 0.0
    per_backend = {
        name: {
            "seconds_runs": [r.seconds for r in reports],
            "propositions_per_s": round(propositions / statistics.median(r.seconds for r in reports), 1),
            "stage_seconds_runs": [r.stage_seconds for r in reports],
        }
        for name, reports in imports.items()
    }
    write_rate = propositions / report.stage_seconds.get("write", 1.0)
    result: dict[str, Any] = {
        "propositions": propositions,
        "episodes": imported.get("Episode", 0),
        "concepts": imported.get("Concept", 0),
        "seconds": report.seconds,
        "propositions_per_s": round(rate, 1),
        "ingest_seconds": round(ingest_s, 3),
        "ingest_propositions_per_s": round(ingest_rate, 1),
        "ratio_import_to_ingest_throughput": round(rate / ingest_rate, 3) if ingest_rate else None,
        "backend": names[0],
        "per_backend": per_backend,
        "per_backend_speedup_vs_last": {
            name: round(
                statistics.median(r.seconds for r in imports[names[-1]])
                / statistics.median(r.seconds for r in reports),
                2,
            )
            for name, reports in imports.items()
        },
        "goal_propositions_per_s": 250,
        "import_stage_seconds": report.stage_seconds,
        "write_propositions_per_s_of_writer_time": round(write_rate, 1),
        "node_counts": {"import": imported, "ingest": ingested},
        "same_graph_as_ingest": True,
        "same_graph_evidence": f"{SAME_GRAPH_TEST} (passes at this commit): import and ingest of one corpus give "
        "identical node and relationship sets; this run's ingest jobs run side by side, so its counts may differ",
        "extrapolation_1m": {
            "label": "EXTRAPOLATION, not a measurement: linear in propositions from this run",
            "import_minutes": round(MILLION / rate / 60, 1),
            "ingest_minutes": round(MILLION / ingest_rate / 60, 1) if ingest_rate else None,
            # If extraction and embedding cost nothing (a GPU, more cores), the writes alone, one writer thread at
            # its rate in this run (the stages overlap, so wall-clock minus one stage would mean nothing).
            "write_minutes_one_writer": round(MILLION / write_rate / 60, 1),
        },
        "conversations": len(records),
        "turns": turns,
        "batch": args.batch,
        "writers": args.writers,
        "commit": git_commit(),
    }
    path = write_result(args.name, result)
    print(
        f"import ({names[0]}) {propositions} propositions in {report.seconds:.1f} s ({rate:.1f}/s), ingest "
        f"{ingest_s:.1f} s ({ingest_rate:.1f}/s); per backend "
        + ", ".join(f"{n} {b['propositions_per_s']}/s" for n, b in per_backend.items())
        + f"; stages {report.stage_seconds}; -> {path}"
    )
    if not args.keep:
        for space in (import_space, ingest_space):
            delete_space(get_driver(), get_settings().neo4j.database, space)


if __name__ == "__main__":
    main()
