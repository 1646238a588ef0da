"""The floors and the absence of import circles, as import-linter checks them ([tool.importlinter] in pyproject.toml).

Every import counts: those inside functions and under TYPE_CHECKING included (a lazy import upward is still one)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOORS = ["bench", "app", "workers", "graph", "engram"]


def test_the_contracts_name_every_floor_top_down_and_forbid_circles_in_each() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    contracts = {c["type"]: c for c in config["contracts"]}
    assert config["root_packages"] == FLOORS
    assert contracts["layers"]["layers"] == FLOORS
    assert sorted(contracts["acyclic_siblings"]["ancestors"]) == sorted(FLOORS)
    assert not any("ignore_imports" in c for c in config["contracts"])  # no exception hidden in the contract


def test_no_module_imports_upward_and_no_imports_go_round_in_a_circle() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "2 kept, 0 broken" in done.stdout
