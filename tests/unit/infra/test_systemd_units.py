"""infra/systemd/: the units for Neo4j, Redis, the migrations, the worker and the API, rendered for this checkout and
checked by `systemd-analyze verify` (Debian's systemd package; infra/install.sh installs it where it is missing)."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from engram.settings import PROJECT_ROOT

UNITS = ["engram-neo4j", "engram-redis", "engram-migrate", "engram-worker", "engram-api"]


def render(dest: Path) -> list[Path]:
    out = subprocess.run(
        ["bash", str(PROJECT_ROOT / "infra/systemd/render.sh"), str(dest)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return [Path(line) for line in out.stdout.split()]


def verify(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: infra/install.sh installs Debian's systemd package"
    return subprocess.run([analyze, "verify", *map(str, paths)], capture_output=True, text=True, timeout=120)


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return parser


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    paths = render(tmp_path)
    assert {p.name for p in paths} == {f"{name}.service" for name in UNITS} | {"engram.target"}
    for path in paths:
        assert not re.search(r"@[A-Z_]+@", path.read_text()), f"{path.name}: a marker left unrendered"
    result = verify(paths)
    assert result.returncode == 0, result.stderr
    assert "engram" not in result.stderr, result.stderr  # no warning about our units (unknown keys say so, rc 0)


def test_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    """The check can fail: a unit whose program is missing, or with a misspelt key, is reported."""
    api = next(p for p in render(tmp_path) if p.name == "engram-api.service")
    api.write_text(api.read_text().replace("/infra/api.sh start", "/infra/no-such-api.sh start"))
    assert verify([api]).returncode != 0
    api.write_text(api.read_text().replace("Restart=always", "Restrat=always"))
    assert "Restrat" in verify([api]).stderr


@pytest.mark.parametrize("name", UNITS)
def test_each_service_restarts_and_starts_after_what_it_needs(tmp_path: Path, name: str) -> None:
    service = unit(next(p for p in render(tmp_path) if p.name == f"{name}.service"))
    restart = service["Service"]["Restart"]
    assert restart in {"on-failure", "always"}
    assert float(service["Service"]["RestartSec"]) > 0
    after = set(service["Unit"].get("After", "").split())
    if name in {"engram-worker", "engram-api", "engram-migrate"}:
        assert {"engram-neo4j.service", "engram-redis.service"} <= after
        # Across hosts the stores are elsewhere: ordering and a soft dependency, never Requires= (it would refuse
        # to start the API on a host without a local Neo4j unit).
        assert "Requires" not in service["Unit"]
    if name in {"engram-worker", "engram-api"}:
        assert "engram-migrate.service" in after
    if service["Service"]["Type"] == "forking":
        pid_file = service["Service"]["PIDFile"]
        assert pid_file.endswith(".pid") and Path(pid_file).is_absolute()
