"""Workers a test starts itself, with settings of its own, while the stack's worker is stopped (so that the test's
worker takes every stage of its jobs)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from engram.settings import PROJECT_ROOT
from workers.celery_app import app as celery_app

CELERY = str(Path(sys.executable).parent / "celery")
WORKER_SH = str(Path(PROJECT_ROOT) / "infra" / "worker.sh")


def start_worker(name: str, **env: str) -> subprocess.Popen[bytes]:
    """A worker of the cpu and gpu queues with one pool process, `env` added to its environment; returns once it
    answers a ping. Stop it with os.killpg(worker.pid, ...)."""
    env = dict(os.environ, ENGRAM_WORKER_VISIBILITY_TIMEOUT_S="12", ENGRAM_WORKER_RESTORE_INTERVAL_S="2", **env)
    worker = subprocess.Popen(
        [CELERY, "-A", "workers.celery_app:app", "worker", "-Q", "cpu,gpu", "-c", "1", "--hostname", f"{name}@%h",
         "--loglevel", "WARNING"],
        cwd=PROJECT_ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            # On a connection of its own: one from the app's pool may still point at a Redis a test restarted.
            with celery_app.connection_for_write() as connection:
                replies = celery_app.control.ping(timeout=1.0, connection=connection)
            if any(name in node for reply in replies for node in reply):
                return worker
        raise TimeoutError(f"worker {name} did not come up")
    except BaseException:
        # Never leave it behind (with its pool process): a stray worker would take later tests' jobs.
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        raise


@contextlib.contextmanager
def stack_worker_stopped() -> Iterator[None]:
    """The stack's worker stopped for the block, started again after it."""
    subprocess.run(["bash", WORKER_SH, "stop"], check=True)
    try:
        yield
    finally:
        subprocess.run(["bash", WORKER_SH, "start"], check=True)
