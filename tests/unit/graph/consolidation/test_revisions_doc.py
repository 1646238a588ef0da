"""Every RevisionRules knob has a row in docs/tuning.md with its default."""

from __future__ import annotations

import dataclasses

from engram.settings import PROJECT_ROOT
from graph.consolidation.revisions import RevisionRules


def test_every_revision_knob_has_a_row_with_its_default() -> None:
    text = (PROJECT_ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    section = text.split("## Consolidation: revisions", 1)[1].split("\n## ", 1)[0]
    rows = {
        cells[1].strip("` "): cells[2].strip()
        for cells in (line.split("|") for line in section.splitlines() if line.startswith("| `"))
    }
    for field in dataclasses.fields(RevisionRules):
        assert field.name in rows, field.name
        assert rows[field.name] == str(field.default), (field.name, rows[field.name], field.default)
