"""Run the real `engram` CLI of this environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engram.settings import PROJECT_ROOT


def engram(*args: str) -> subprocess.CompletedProcess[str]:
    exe = str(Path(sys.executable).parent / "engram")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT)


def engram_here(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess[str]:
    """The CLI of this checkout (PROJECT_ROOT), whichever checkout the environment's `engram` was installed from."""
    command = [sys.executable, "-c", "from app.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, cwd=PROJECT_ROOT)
