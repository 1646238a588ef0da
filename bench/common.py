"""Shared helpers for benchmarks: data location, machine facts, result files."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from engram.settings import PROJECT_ROOT

SHARED_DATA = Path(PROJECT_ROOT).parent / "shared" / "data"  # benchmark data beside the checkout, never in it
LOCOMO_PATH = SHARED_DATA / "locomo" / "locomo_dev6.json"
MULTIHOP_DIR = SHARED_DATA / "multihop"
RESULTS_DIR = Path(PROJECT_ROOT) / "bench" / "results"


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def git_commit() -> str:
    """The checkout's HEAD (a result names the code it measured; uncommitted changes are not in it)."""
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def write_result(name: str, result: dict[str, Any]) -> Path:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"{name}.json"
    result = {
        **result,
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
    }
    path.write_text(json.dumps(result, indent=2) + "\n")
    return path


def last_timed_ingest(name: str, keys: Sequence[str]) -> dict[str, Any]:
    """The ingestion figures (`keys`) of results file `name` as last written, with when they were measured
    (`ingest_measured_at`): a --reuse run times no ingestion and keeps the last run's that did, rather than writing
    zeros over them. Empty where there is no such file or it holds none of them."""
    path = RESULTS_DIR / f"{name}.json"
    if not path.exists():
        return {}
    earlier = json.loads(path.read_text())
    figures = {key: earlier[key] for key in keys if key in earlier}
    if not figures:
        return {}
    return figures | {"ingest_measured_at": earlier.get("ingest_measured_at") or earlier.get("measured_at")}
