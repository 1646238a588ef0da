"""Run the real `engram` CLI of this environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engram.settings import PROJECT_ROOT, get_settings


def engram(
    *args: str, key: str | None = None, stdin: str = "", timeout_s: float = 300
) -> subprocess.CompletedProcess[str]:
    """The CLI; with `key`, its client commands talk to the stack's API with that key (ENGRAM_URL, ENGRAM_API_KEY)."""
    exe = str(Path(sys.executable).parent / "engram")
    env = dict(os.environ)
    if key is not None:
        api = get_settings().api
        env |= {"ENGRAM_URL": f"http://{api.host}:{api.port}", "ENGRAM_API_KEY": key}
    return subprocess.run(
        [exe, *args], capture_output=True, text=True, timeout=timeout_s, cwd=PROJECT_ROOT, env=env, input=stdin
    )


def engram_here(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess[str]:
    """The CLI of this checkout (PROJECT_ROOT), whichever checkout the environment's `engram` was installed from."""
    command = [sys.executable, "-c", "from app.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, cwd=PROJECT_ROOT)
