"""What a node's vector costs Neo4j to write: the same UNWIND batches of nodes (graph/vector_import.py's statement)
into a label with a shared vector index (Proposition), with the vector into a label without one (Dimension), and
without a vector, in one run, each into a scratch space deleted afterwards. Explains where the import of an export
with vectors spends its time (docs/embedding.md). Needs the stack running. Writes bench/results/vector_writes.json.

    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.vector_writes --nodes 4000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench.common import write_result
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.params import vector_param
from graph.vector_import import VectorImporter

BATCH = 2000
SPACE = "bench-vector-writes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=4000)
    args = parser.parse_args()
    driver, database = get_driver(), get_settings().neo4j.database
    delete_space(driver, database, SPACE)
    rng = np.random.default_rng(1)
    cases = {"Proposition, with vector (shared vector index)": ("Proposition", True),
             "Dimension, with vector (no vector index)": ("Dimension", True),
             "Proposition, no vector": ("Proposition", False)}  # fmt: skip
    results = {}
    for offset, (name, (label, with_vector)) in enumerate(cases.items()):
        started = time.perf_counter()
        for start in range(0, args.nodes, BATCH):
            ids = [f"n{offset}-{i}" for i in range(start, min(start + BATCH, args.nodes))]
            rows = [
                {"id": i, "props": {"space": SPACE, "id": i, "text": "a statement of about ten words " * 2},
                 "embedding": vector_param(rng.standard_normal(384).astype(np.float32)) if with_vector else None}
                for i in ids
            ]  # fmt: skip
            driver.execute_query(VectorImporter.node_statement(label), rows=rows, space=SPACE, database_=database)
        rate = args.nodes / (time.perf_counter() - started)
        results[name] = round(rate, 1)
        print(f"{name}: {rate:.0f} nodes/s")
    delete_space(driver, database, SPACE)
    base = results["Proposition, no vector"]
    ratios = {k: round(v / base, 3) for k, v in results.items()}
    write_result("vector_writes", {"nodes": args.nodes, "nodes_per_s": results, "ratio_to_no_vector": ratios})


if __name__ == "__main__":
    main()
