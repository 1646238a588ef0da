"""docs/tuning.md has a row for every recall knob, with the default the code has."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from graph.recall.config import DEFAULT_LIST_WEIGHTS, KNOBS, RecallConfig

DOC = Path(__file__).resolve().parents[4] / "docs" / "tuning.md"
_ROW = re.compile(r"^\| `([\w.]+)` \| ([^|]+) \|", re.MULTILINE)


def _documented() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Recall", 1)[1].split("\n## ", 1)[0]
    return {name: default.strip() for name, default in _ROW.findall(section)}


def _knobs(config: RecallConfig) -> dict[str, Any]:
    """Every knob by its own name (as the environment names it): the sections' knobs, then associate's and
    aggregate's by their section."""
    knobs: dict[str, Any] = {"recipe": config.recipe}
    for name in KNOBS:
        value = config.knob(name)
        if name == "list_weights":
            knobs |= {f"list_weights.{n}": value[n] for n in DEFAULT_LIST_WEIGHTS}
        elif hasattr(value, "model_dump"):
            knobs |= {f"{name}.{field}": field_value for field, field_value in value.model_dump().items()}
        else:
            knobs[name] = value
    for section in ("associate", "aggregate"):
        knobs |= {f"{section}.{field}": value for field, value in getattr(config, section).model_dump().items()}
    return knobs


def test_every_recall_knob_has_a_row_with_its_default() -> None:
    documented = _documented()
    knobs = _knobs(RecallConfig.model_construct())  # the defaults, whatever the environment sets
    assert sorted(set(knobs) - set(documented)) == []  # undocumented knobs
    assert sorted(set(documented) - set(knobs)) == []  # rows for knobs that no longer exist
    wrong = {name: (documented[name], value) for name, value in knobs.items() if documented[name] != str(value)}
    assert wrong == {}
