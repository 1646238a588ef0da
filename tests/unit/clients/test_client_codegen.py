"""clients/python/engram_client is what ariadne-codegen makes of graphql/schema.graphql and graphql/operations/
today (like the SDL test): a changed operation without a regenerated client fails here."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from engram.settings import PROJECT_ROOT

GENERATOR = PROJECT_ROOT / "clients" / "python" / "generate.py"
PACKAGE = GENERATOR.parent / "engram_client"


def _codegen_python() -> str:
    venv = Path(os.environ.get("ENGRAM_CODEGEN_VENV", Path.home() / ".cache" / "engram" / "codegen-venv"))
    python = venv / "bin" / "python"
    assert python.is_file(), f"no code generator at {venv}: run infra/install.sh"
    return str(python)


def test_the_committed_client_is_what_the_generator_makes() -> None:
    result = subprocess.run([_codegen_python(), str(GENERATOR), "--check"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_drift_check_sees_an_edited_module(tmp_path: Path) -> None:
    copy = tmp_path / "engram_client"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "recall.py").write_text((copy / "recall.py").read_text() + "\n# edited by hand\n")
    (copy / "stats.py").unlink()
    script = (
        f"import pathlib, sys; sys.path.insert(0, {str(GENERATOR.parent)!r}); import generate; "
        f"print(generate.drift(pathlib.Path({str(copy)!r})))"
    )
    result = subprocess.run([_codegen_python(), "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert result.stdout.strip() == "['recall.py', 'stats.py']"
