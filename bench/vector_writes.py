"""What a node's vector costs Neo4j to write: the same UNWIND batches of nodes (graph/vector_import.py's statement)
into a label with a shared vector index (Proposition), with the vector into a label without one (Dimension), and
without a vector; then the two ways of filling a fresh vector index of a label of its own (as a space's own
indexes are): made first, the nodes inserted as they are written, or made after the nodes are written, Neo4j
populating it in bulk. One run, each into a scratch space deleted afterwards (its indexes dropped). Explains where
the import of an export with vectors spends its time (docs/embedding.md). Needs the stack running. Writes
bench/results/vector_writes.json.

    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.vector_writes --nodes 4000
"""

from __future__ import annotations

import argparse
import time

import neo4j
import numpy as np

from bench.common import write_result
from engram.settings import get_settings
from graph.admin import delete_space
from graph.cypher import load
from graph.driver import get_driver
from graph.params import vector_param
from graph.vector_import import VectorImporter

BATCH = 2000
SPACE = "bench-vector-writes"
BEFORE, AFTER = "BenchVectorWritesIndexedFirst", "BenchVectorWritesIndexedAfter"  # labels of the fresh indexes
# Fresh indexes made first with another HNSW configuration than the shipped one (what an insert costs by setting).
VARIANTS = {
    "BenchVectorWritesNoQuantization": "`vector.quantization.enabled`: false",
    "BenchVectorWritesEf50": "`vector.hnsw.ef_construction`: 50",
    "BenchVectorWritesM8": "`vector.hnsw.m`: 8",
}
INDEXES = {BEFORE: "bench_vector_writes_first", AFTER: "bench_vector_writes_after"} | {
    label: f"bench_vector_writes_{label.removeprefix('BenchVectorWrites').lower()}" for label in VARIANTS
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=4000)
    args = parser.parse_args()
    driver, database = get_driver(), get_settings().neo4j.database
    delete_space(driver, database, SPACE)
    rng = np.random.default_rng(1)
    # name -> (label, with a vector, an extra label of its own, when its vector index is made: before / after)
    cases = {"Proposition, with vector (shared vector index)": ("Proposition", True, None, None),
             "Dimension, with vector (no vector index)": ("Dimension", True, None, None),
             "Proposition, no vector": ("Proposition", False, None, None),
             "Dimension + a label, its vector index made first": ("Dimension", True, BEFORE, "before"),
             "Dimension + a label, its index made after (population)": ("Dimension", True, AFTER, "after")}  # fmt: skip
    cases |= {f"Dimension + a label, its vector index made first, {config}": ("Dimension", True, label, "before")
              for label, config in VARIANTS.items()}  # fmt: skip
    results, seconds = {}, {}
    try:
        for offset, (name, (label, with_vector, extra, when)) in enumerate(cases.items()):
            if extra and when == "before":
                _make_index(driver, database, extra)
            started = time.perf_counter()
            for start in range(0, args.nodes, BATCH):
                ids = [f"n{offset}-{i}" for i in range(start, min(start + BATCH, args.nodes))]
                rows = [
                    {"id": i, "props": {"space": SPACE, "id": i, "text": "a statement of about ten words " * 2},
                     "embedding": vector_param(rng.standard_normal(384).astype(np.float32)) if with_vector else None}
                    for i in ids
                ]  # fmt: skip
                driver.execute_query(_statement(label, extra), rows=rows, space=SPACE, database_=database)
            written = time.perf_counter() - started
            if extra and when == "after":
                mark = time.perf_counter()
                _make_index(driver, database, extra)
                seconds["population of the index made after"] = round(time.perf_counter() - mark, 2)
                seconds["writes before the population"] = round(written, 2)
            rate = args.nodes / (time.perf_counter() - started)
            results[name] = round(rate, 1)
            print(f"{name}: {rate:.0f} nodes/s", flush=True)
    finally:
        delete_space(driver, database, SPACE)
        for index in INDEXES.values():
            driver.execute_query(load("space_indexes/drop_index").replace("{index}", index), database_=database)
    base = results["Proposition, no vector"]
    ratios = {k: round(v / base, 3) for k, v in results.items()}
    write_result(
        "vector_writes", {"nodes": args.nodes, "nodes_per_s": results, "ratio_to_no_vector": ratios, "seconds": seconds}
    )


def _statement(label: str, extra: str | None) -> str:
    """The import's node statement, giving the nodes the label `extra` too (as a space's own label)."""
    statement = VectorImporter.node_statement(label)
    return statement.replace("SET n += r.props", f"SET n += r.props, n:{extra}") if extra else statement


def _make_index(driver: neo4j.Driver, database: str, label: str) -> None:
    """A vector index on `label` as a space's own (space_indexes/create_vector_index), awaited online."""
    ddl = load("space_indexes/create_vector_index").replace("{index}", INDEXES[label]).replace("{label}", label)
    if label in VARIANTS:
        ddl = ddl.replace("'cosine'", f"'cosine', {VARIANTS[label]}")
    driver.execute_query(ddl, database_=database)
    driver.execute_query(load("space_indexes/await_index"), index=INDEXES[label], timeout_s=3600, database_=database)


if __name__ == "__main__":
    main()
