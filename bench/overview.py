"""One chart of every recall benchmark's headline figure: Engram against the flat baselines of the same run, read
from the committed result files (run each benchmark first). Writes bench/results/recall_overview.png.

    ~/.cache/engram/venv/bin/python -m bench.overview
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from bench.common import RESULTS_DIR

SYSTEMS = ("engram", "bm25", "dense", "hybrid")
# (label, result file, path to a system's figure with {system} standing for the system's key in that file)
HEADLINES = (
    ("LoCoMo dev\nR@10 (no adv.)", "locomo_recall", ("{system}", "all-no-adv", "R@10")),
    ("LongMemEval_S dev\nturn R@10", "longmemeval", ("{system}", "all", "turnR@10")),
    ("HotpotQA\npassage R@5", "multihop", ("hotpotqa", "{system}", "R@5")),
    ("MuSiQue\npassage R@5", "multihop", ("musique", "{system}", "R@5")),
    ("ALFWorld procedures\nP@1 (goal text)", "procedural", ("{system}", "P@1")),
)


def figure(result: dict[str, Any], path: tuple[str, ...], system: str) -> float:
    node: Any = result
    for part in path:
        key = part.format(system=system)
        if key not in node and key == "bm25":
            key = "bm25_stem"  # LoCoMo's and the procedures' BM25 stems its words
        node = node[key]
    return float(node)


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []
    for label, name, path in HEADLINES:
        result = json.loads((RESULTS_DIR / f"{name}.json").read_text())
        rows.append((label, [figure(result, path, system) for system in SYSTEMS]))
    fig, ax = plt.subplots(figsize=(12, 4.5))
    width = 0.8 / len(SYSTEMS)
    for offset, system in enumerate(SYSTEMS):
        ax.bar(np.arange(len(rows)) + offset * width, [values[offset] for _, values in rows], width, label=system)
    ax.set_xticks(np.arange(len(rows)) + 0.4 - width / 2, [label for label, _ in rows], fontsize=8)
    ax.set_ylim(0, 112)  # headroom for the legend above the bars
    ax.set_title("Recall across kinds of experience: Engram vs flat baselines of the same run")
    ax.legend(loc="upper center", ncol=4, frameon=False)
    fig.tight_layout()
    out = RESULTS_DIR / "recall_overview.png"
    fig.savefig(out, dpi=120)
    for label, values in rows:
        print(label.replace("\n", " "), dict(zip(SYSTEMS, values, strict=True)))
    print(out)


if __name__ == "__main__":
    main()
