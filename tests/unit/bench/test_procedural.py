import json
from pathlib import Path

from bench.procedural import Demo, split
from bench.procedural_data import demonstration, find_train_root


def _trial(train: Path, game: str, trial: str, goal: str, actions: list[str]) -> Path:
    folder = train / game / trial
    folder.mkdir(parents=True)
    chat = [{"from": "human", "value": f"-= Welcome to TextWorld, ALFRED! =-\n\nA room.\n\nYour task is to: {goal}"}]
    for n, action in enumerate(actions):
        chat += [{"from": "gpt", "value": action}, {"from": "human", "value": f"seen {n}"}]
    (folder / "gt_traj.json").write_text(json.dumps(chat))
    anns = {"turk_annotations": {"anns": [{"task_desc": " Rinse a mug. "}, {"task_desc": ""}]}}
    (folder / "traj_data.json").write_text(json.dumps(anns))
    return folder


def test_a_demonstration_pairs_each_action_with_the_observation_before_it(tmp_path: Path) -> None:
    train = tmp_path / "repo" / "data" / "json_2.1.1" / "train"
    game = "pick_clean_then_place_in_recep-Mug-None-CoffeeMachine-5"
    folder = _trial(train, game, "trial_1", "put a clean mug in coffeemachine.", ["go to sink 1", "clean mug 1"])
    assert find_train_root(tmp_path / "repo") == train
    row = demonstration(folder, train)
    assert row is not None
    assert row["goal"] == "put a clean mug in coffeemachine."
    assert row["task_type"] == "pick_clean_then_place_in_recep"
    assert row["steps"] == [
        {"observation": "A room.", "action": "go to sink 1"},
        {"observation": "seen 0", "action": "clean mug 1"},
    ]
    assert row["human_goals"] == ["Rinse a mug."]
    # ALFRED's seventh type has no ALFWorld game: left out.
    other = _trial(train, "pick_and_place_with_movable_recep-Pen-Mug-Desk-1", "trial_2", "put a pen.", ["go to desk 1"])
    assert demonstration(other, train) is None


def _demo(task: str, n: int) -> Demo:
    task_type = task.split("-")[0]
    return Demo(f"{task}/{n}", task, task_type, f"goal {task}", ("human",), (("", "act"),))


def test_held_out_tasks_are_never_ingested_and_each_type_is_capped() -> None:
    tasks = [f"pick_heat_then_place_in_recep-Obj{i}-None-Rec" for i in range(7)]
    tasks += [f"look_at_obj_in_light-Obj{i}-None-DeskLamp" for i in range(3)]
    demos = [_demo(task, n) for task in tasks for n in range(4)]
    ingest, queries = split(demos, held_out=4, per_type=10)
    held = {q.task for q in queries}
    assert not held & {d.task for d in ingest}
    by_type = {t: [q for q in queries if q.task_type == t] for t in {q.task_type for q in queries}}
    assert len(by_type["pick_heat_then_place_in_recep"]) == 3  # at most half of its 7 tasks
    assert len(by_type["look_at_obj_in_light"]) == 1
    assert [q.half for q in by_type["pick_heat_then_place_in_recep"]] == [1, 1, 2]
    heat = [d for d in ingest if d.task_type == "pick_heat_then_place_in_recep"]
    assert len(heat) == 10 and len({d.task for d in heat}) == 4  # round robin over the 4 remaining tasks
