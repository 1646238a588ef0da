"""Tasks that describe the worker itself (used by `engram doctor` and the tests)."""

from __future__ import annotations

import os
import platform
import socket
from typing import Any

from engram.native_threads import math_threads
from workers.celery_app import app


@app.task(name="engram.worker_info")
def worker_info() -> dict[str, Any]:
    """Which process ran this: proves a task crossed the broker to a real worker and back."""
    return {
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "hostname": socket.gethostname(),
        "python": platform.python_version(),
        "nice": os.getpriority(os.PRIO_PROCESS, 0),
        "math_threads": math_threads(),
    }
