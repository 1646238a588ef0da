"""The write stage alone: how many propositions a second Neo4j takes from the ingest writer, by writer threads.

Precomputed batches of the synthetic graph (bench/synthetic_graph.py: 2,000 propositions with their episodes,
sources and vectors each, no extraction or embedding) written with `MemoryWriter.write_sources` by 1, 2 and 4
threads, each into a fresh space; the concepts are written first. This is the ceiling of `engram import` when
embedding costs nothing (a GPU), and what a faster write path would have to beat. Needs the stack running.
Writes bench/results/import_writes.json.

    ~/.cache/engram/venv/bin/python -m bench.import_writes --propositions 16000
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tqdm import tqdm

from bench.common import write_result
from bench.synthetic_graph import SyntheticGraph
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.memory_writer import MemoryWriter

MILLION = 1_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--propositions", type=int, default=16_000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    driver, database = get_driver(), get_settings().neo4j.database
    runs: dict[str, Any] = {}
    for threads in args.threads:
        space = f"bench-import-writes-{threads}"
        delete_space(driver, database, space)
        batches = list(SyntheticGraph(space, args.propositions, seed=3).batches())
        writer = MemoryWriter(driver, database)
        for batch in batches:
            writer.write_schema(batch)
        started = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool, tqdm(total=len(batches), desc=f"{threads} thread(s)") as bar:
            for _ in pool.map(writer.write_sources, batches):
                bar.update(1)
        seconds = time.perf_counter() - started
        rate = args.propositions / seconds
        runs[str(threads)] = {"seconds": round(seconds, 2), "propositions_per_s": round(rate, 1),
                              "extrapolated_minutes_1m": round(MILLION / rate / 60, 1)}  # fmt: skip
        print(f"{threads} thread(s): {rate:.0f} propositions/s")
        delete_space(driver, database, space)
    label = "extrapolated_minutes_1m: linear, not a measurement"
    write_result("import_writes", {"propositions": args.propositions, "by_threads": runs, "extrapolation_label": label})


if __name__ == "__main__":
    main()
