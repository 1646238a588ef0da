"""Run the real `engram` CLI of this environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engram.settings import PROJECT_ROOT


def engram(*args: str) -> subprocess.CompletedProcess[str]:
    exe = str(Path(sys.executable).parent / "engram")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT)
