"""Docs that cannot go stale: docs/design.md's pipeline listing is the engine's `PIPELINE`, and docs/tuning.md's
table of recall recipes lists exactly the knobs each recipe sets (the knobs' own table is checked by
tests/unit/graph/recall/test_tuning_doc.py)."""

from __future__ import annotations

import re
from typing import Any

from engram.settings import PROJECT_ROOT
from graph.recall.config import RECIPES

DESIGN = PROJECT_ROOT / "docs" / "design.md"
TUNING = PROJECT_ROOT / "docs" / "tuning.md"
ENGINE = PROJECT_ROOT / "graph" / "recall" / "engine.py"


def _pipeline_of_engine() -> list[str]:
    source = ENGINE.read_text(encoding="utf-8")
    start = source.index("PIPELINE: tuple[PipelineStep, ...] = (")
    return source[start : source.index("\n)\n", start)].splitlines()[1:]


def _pipeline_of_design() -> list[str]:
    text = DESIGN.read_text(encoding="utf-8")
    start = text.index("```python\nPIPELINE = (")
    return text[start : text.index("\n)\n", start)].splitlines()[2:]


def test_the_design_docs_pipeline_is_the_engines() -> None:
    assert _pipeline_of_design() == _pipeline_of_engine()


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_the_recipes_table_lists_each_recipes_knobs() -> None:
    text = TUNING.read_text(encoding="utf-8")
    table = text.split("| recipe | the knobs it sets", 1)[1].split("\n\n", 1)[0]
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]*) \|", table, re.MULTILINE))
    documented = {name: sorted(re.findall(r"`([\w.]+=[^`]+)`", knobs)) for name, knobs in rows.items()}
    expected = {
        name: sorted(f"{section}.{k}={_shown(v)}" for section, knobs in sections.items() for k, v in knobs.items())
        for name, sections in RECIPES.items()
    }
    assert documented == expected
