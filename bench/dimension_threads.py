"""How many GDS threads consolidation's dimensions step should use: wall time and Neo4j CPU of one community
detection (projection, Louvain, PageRank; graph/dimensions.py) per space, at 1, 2 and 4 threads, on the spaces
of the running stack (4 is GDS's own default, the baseline).

    python -m bench.dimension_threads                      # every space with association edges
    python -m bench.dimension_threads --spaces a b --rounds 5

Each space is read once first (a warm page cache); the thread counts then take turns, in a rotating order, so
neither a noisy neighbour nor going first favours one. Neo4j's CPU is read from its
process (the stack's pid file), so run it on a quiet stack.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from statistics import median
from typing import Any

from tqdm import tqdm

from bench.common import git_commit, write_result
from bench.soak_cpu import stack_cpu_seconds
from engram.settings import get_settings
from graph.consolidation.report import figures
from graph.dimensions import DIMENSION_THREADS, detect_communities
from graph.driver import get_driver

THREADS = (4, 2, 1)


def _neo4j_cpu_s(state_dir: Path) -> float:
    return stack_cpu_seconds(state_dir)["neo4j"]


def main() -> None:
    parser = argparse.ArgumentParser(description="Wall time and Neo4j CPU of the dimensions step per GDS thread count")
    parser.add_argument("--spaces", nargs="*", default=None, help="these spaces (default: all with associations)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per space and thread count")
    args = parser.parse_args()

    settings = get_settings()
    driver = get_driver()
    database = settings.neo4j.database
    names = args.spaces or [r["name"] for r in driver.execute_query("MATCH (s:Space) RETURN s.name AS name")[0]]
    sizes = {name: figures(driver, database, name) for name in names}
    spaces = [name for name in names if sizes[name].association_edges]
    samples: dict[str, dict[int, list[tuple[float, float]]]] = {s: {t: [] for t in THREADS} for s in spaces}
    with tqdm(total=len(spaces) * args.rounds * len(THREADS), desc="community detections", unit="run") as bar:
        for space in spaces:
            detect_communities(driver, database, space, 1)  # warm: the first detection of a space reads it from disk
            for round_ in range(args.rounds):
                for threads in THREADS[round_ % len(THREADS) :] + THREADS[: round_ % len(THREADS)]:
                    cpu, wall = _neo4j_cpu_s(settings.state_dir), time.perf_counter()
                    detect_communities(driver, database, space, threads)
                    samples[space][threads].append((time.perf_counter() - wall, _neo4j_cpu_s(settings.state_dir) - cpu))
                    bar.update()

    def summary(runs: list[tuple[float, float]]) -> dict[str, float]:
        return {
            "wall_ms": round(1000 * median(w for w, _ in runs), 1),
            "neo4j_cpu_ms": round(1000 * median(c for _, c in runs), 1),
        }

    per_space: dict[str, Any] = {}
    for space in spaces:
        rows = {str(t): summary(samples[space][t]) for t in THREADS}
        base = rows[str(THREADS[0])]
        for row in rows.values():
            row["wall_ratio_vs_4"] = round(row["wall_ms"] / base["wall_ms"], 3)
            row["cpu_ratio_vs_4"] = (
                round(row["neo4j_cpu_ms"] / base["neo4j_cpu_ms"], 3) if base["neo4j_cpu_ms"] else None
            )
        per_space[space] = {
            "concepts": sizes[space].concepts,
            "association_edges": sizes[space].association_edges,
            **rows,
        }
        print(space, per_space[space], flush=True)
    overall = {str(t): summary([run for s in spaces for run in samples[s][t]]) for t in THREADS}
    path = write_result(
        "dimension_threads",
        {
            "rounds": args.rounds,
            "threads_default": DIMENSION_THREADS,
            "overall_median": overall,
            "spaces": per_space,
            "commit": git_commit(),
        },
    )
    print(path, overall)


if __name__ == "__main__":
    main()
