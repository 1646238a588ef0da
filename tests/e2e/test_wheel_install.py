"""Engram installed as a wheel, not from the checkout: the wheel is built from this tree (offline, with the venv's own
setuptools), installed into a fresh venv outside the checkout, and its `engram` runs against the test stack:
`engram doctor` (queries whose Cypher it reads from the wheel), `engram migrate` (the wheel's schema files, which the
stack applied) and a client command (a GraphQL operation read from the wheel). The fresh venv reaches the
dependencies through the test venv's site-packages, added after its own (a .pth line), so nothing is downloaded and
the checkout is never imported."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest

from engram.settings import PROJECT_ROOT, get_settings
from tests.e2e.api.conftest import issue_key

# What the wheel is built from: the packages, the folders engram/assets links to, and the project's metadata.
SOURCES = ["pyproject.toml", "README.md", "app", "engram", "graph", "workers", "cypher", "graphql/operations"]
BUILT_INSPECTOR = Path("web/dist")


def _copy_sources(to: Path) -> None:
    """The tree, without caches or a build of the clients' node modules (what `pip wheel` would copy anyway)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", "*.egg-info")
    for name in [*SOURCES, *([str(BUILT_INSPECTOR)] if (PROJECT_ROOT / BUILT_INSPECTOR).is_dir() else [])]:
        source, target = PROJECT_ROOT / name, to / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(source, target)


def _run(command: list[str], timeout_s: float = 300, **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    _copy_sources(source)
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), str(source)])
    (built,) = out.glob("engram-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A venv with only the wheel installed; then a .pth line gives it the test venv's dependencies (after pip ran, so
    that pip never sees the editable engram there)."""
    root = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(root)])
    python = root / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)])
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    (site / "engram_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    # What an install from the wheel runs next (docs/operations.md): the embedding's ONNX export, into this venv.
    _run([str(python), "-m", "engram.embedding_export"], cwd=root, env=_env())
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _env() -> dict[str, str]:
    """The test stack's settings (infra/test.sh exports them), and nothing that points Python at the checkout."""
    left_out = ("PYTHONPATH", "PYTHONSTARTUP", "ENGRAM_EMBEDDING_ONNX_DIR")  # the venv's own export, not another's
    return {k: v for k, v in os.environ.items() if k not in left_out}


def test_the_wheel_ships_the_cypher_statements_the_operations_and_the_inspector(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())

    def shipped(folder: Path, inside: str) -> set[str]:
        return {f"engram/assets/{inside}/{p.relative_to(folder)}" for p in folder.rglob("*") if p.is_file()
                and not p.name.startswith(".")}  # fmt: skip

    assert shipped(PROJECT_ROOT / "cypher", "cypher") <= names
    assert shipped(PROJECT_ROOT / "graphql" / "operations", "operations") <= names
    if (PROJECT_ROOT / BUILT_INSPECTOR / "index.html").is_file():
        assert shipped(PROJECT_ROOT / BUILT_INSPECTOR, "inspector") <= names


def test_the_installed_package_reads_its_assets_from_itself_not_the_checkout(venv: Path, tmp_path: Path) -> None:
    probe = (
        "import app.api.inspector as i, app.cli.api_client as c, graph.cypher as g, graph.migrations as m\n"
        "print(g.__file__, g.CYPHER_DIR, c.OPERATIONS, i.INSPECTOR_DIST, sep='\\n')\n"
        "assert g.load('admin/delete_space') and c.operation('remember') and m.SCHEMA_DIR.is_dir()\n"
    )
    done = _run([str(venv / "bin" / "python"), "-c", probe], cwd=tmp_path, env=_env())
    paths = [Path(line) for line in done.stdout.split()]
    assert all(p.is_relative_to(venv) for p in paths), done.stdout
    assert not any(p.resolve().is_relative_to(PROJECT_ROOT) for p in paths), done.stdout


def test_engram_doctor_from_the_wheel_passes_against_the_test_stack(venv: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(venv / "bin" / "engram"), "doctor"], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=_env()
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "FAIL" not in out, out
    assert re.search(r"ok\s+Neo4j over Bolt: ", out) and re.search(r"ok\s+APOC: ", out), out  # the wheel's Cypher


def test_engram_migrate_from_the_wheel_finds_its_schema_files_applied(venv: Path, tmp_path: Path) -> None:
    """The wheel's cypher/schema files are the ones the stack applied: the same checksums, nothing left to apply."""
    done = _run([str(venv / "bin" / "engram"), "migrate"], cwd=tmp_path, env=_env())
    assert "none (schema up to date)" in done.stdout, done.stdout


def test_a_client_command_from_the_wheel_sends_an_operation_it_ships(
    venv: Path, tmp_path: Path, driver: neo4j.Driver, space: str
) -> None:
    api = get_settings().api
    env = _env() | {"ENGRAM_URL": f"http://{api.host}:{api.port}", "ENGRAM_API_KEY": issue_key(driver, space)}
    done = _run([str(venv / "bin" / "engram"), "list", "users"], cwd=tmp_path, env=env)
    assert done.stdout.split() == [], done.stdout  # a fresh space: no users, and no error
