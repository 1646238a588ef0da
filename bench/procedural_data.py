"""Builds the procedural-recall benchmark file from ALFWorld expert demonstrations (see bench/README.md).

Reads an ALFWorld `json_2.1.1/train` tree whose game folders hold `gt_traj.json` (the handcoded expert's
actions and the TextWorld observations, as a from/value chat) and `traj_data.json` (the ALFRED task metadata with
the crowd workers' task descriptions), and writes one JSON object per demonstration:

    {"id", "game", "task_type", "goal", "human_goals": [...], "steps": [{"observation", "action"}, ...]}

`goal` is the instruction the agent was given ("put a clean potato in microwave."); `human_goals` are the ALFRED
annotators' own descriptions of the same task, used as a second, differently worded set of queries.

    ~/.cache/engram/venv/bin/python -m bench.procedural_data --source /path/to/wts_70B
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from tqdm import tqdm

DEFAULT_OUT = Path.home() / ".cache" / "engram" / "bench" / "procedural.jsonl"
# The six ALFWorld task types (ALFRED's seventh, pick_and_place_with_movable_recep, is not an ALFWorld game).
TASK_TYPES = (
    "pick_and_place_simple",
    "look_at_obj_in_light",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_two_obj_and_place",
)
_GOAL = re.compile(r"Your task is to:\s*(.+?)\s*$", re.DOTALL)
_WELCOME = re.compile(r"^-= Welcome to TextWorld, ALFRED! =-\s*")


def find_train_root(source: Path) -> Path:
    """The `json_2.1.1/train` folder inside `source` (a clone of the repository that hosts it, or the folder)."""
    if source.name == "train" and source.parent.name == "json_2.1.1":
        return source
    found = sorted(source.glob("**/json_2.1.1/train"))
    if not found:
        raise SystemExit(f"no json_2.1.1/train folder under {source}")
    return found[0]


def demonstration(trial: Path, train_root: Path) -> dict[str, Any] | None:
    """One demonstration from a trial folder, or None when the game is not one of the six ALFWorld types."""
    chat: list[dict[str, str]] = json.loads((trial / "gt_traj.json").read_text())
    game = trial.parent.name
    task_type = game.split("-")[0]
    if task_type not in TASK_TYPES:
        return None
    first = _WELCOME.sub("", chat[0]["value"])
    match = _GOAL.search(first)
    if match is None:
        raise ValueError(f"{trial}: the first observation states no task")
    observation = first[: match.start()].strip()
    steps = []
    for turn in chat[1:]:
        if turn["from"] == "gpt":
            steps.append({"observation": observation, "action": turn["value"].strip()})
            observation = ""
        else:
            observation = turn["value"].strip()
    metadata = trial / "traj_data.json"
    annotations = json.loads(metadata.read_text())["turk_annotations"]["anns"] if metadata.exists() else []
    return {
        "id": f"alfworld-{trial.relative_to(train_root).as_posix()}",
        "game": game,
        "task_type": task_type,
        "goal": match.group(1),
        "human_goals": [a["task_desc"].strip() for a in annotations if a.get("task_desc", "").strip()],
        "steps": steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="build the procedural-recall benchmark file from ALFWorld")
    parser.add_argument("--source", type=Path, required=True, help="a folder holding json_2.1.1/train")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    train_root = find_train_root(args.source)
    trials = sorted(p.parent for p in train_root.glob("*/*/gt_traj.json"))
    parsed = (demonstration(trial, train_root) for trial in tqdm(trials, desc="demonstrations", unit="traj"))
    rows = [row for row in parsed if row is not None]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    counts = {t: sum(r["task_type"] == t for r in rows) for t in TASK_TYPES}
    print(f"{len(rows)} demonstrations -> {args.out}: {counts}")


if __name__ == "__main__":
    main()
