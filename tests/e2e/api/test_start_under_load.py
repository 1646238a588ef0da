"""Start-up on a busy machine (issue 47, N1): the API with its default process count comes up, and says it is ready
only when it is, while every core is held by a CPU hog.

Before the fix, uvicorn's supervisor pinged each process every 5 s (its default) and killed the ones loading the
embedding model too slowly to answer: on a loaded 2-core machine the processes died and were replaced forever.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engram.settings import PROJECT_ROOT, ApiSettings, EngramSettings
from tests.support.ports import free_port

HOG = "while True:\n    pass\n"
# infra/api.sh gives the API this long to be ready before `stack.sh up` fails (ENGRAM_API_START_TIMEOUT_S).
STACK_WAIT_S = 300


@pytest.fixture()
def cpu_hogs() -> Iterator[int]:
    """One busy process per core (and one more), started before and stopped after the test."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range((os.cpu_count() or 2) + 1)]
    try:
        time.sleep(1)
        yield len(hogs)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def test_the_default_api_processes_come_up_under_a_cpu_hog(
    settings: EngramSettings, cpu_hogs: int, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("ENGRAM_API_PROCESSES", "ENGRAM_API_PROCESS_HEALTHCHECK_TIMEOUT_S")
    }
    env |= {"ENGRAM_API_PORT": str(port), "ENGRAM_STATE_DIR": str(tmp_path)}  # its own metrics files
    processes = ApiSettings.model_fields["processes"].default
    assert processes >= 2  # the default this test is about
    log_path = tmp_path / "api.log"
    with log_path.open("wb") as log:
        api = subprocess.Popen(
            [sys.executable, "-m", "app.api.server"],
            cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STACK_WAIT_S
        ready: httpx.Response | None = None
        while time.monotonic() < deadline and api.poll() is None:
            try:
                ready = httpx.get(f"{base}/readyz", timeout=30)
                if ready.status_code == 200:
                    break
            except httpx.TransportError:
                pass  # not listening yet: no process has finished starting
            time.sleep(1)
        text = log_path.read_text(errors="replace")
        assert api.poll() is None, f"the API exited: {text[-2000:]}"
        assert ready is not None and ready.status_code == 200, f"not ready within {STACK_WAIT_S} s: {text[-2000:]}"
        checks = ready.json()["checks"]
        assert {"neo4j", "redis", "model"} <= set(checks) and set(checks.values()) == {"ok"}, checks
        assert httpx.get(f"{base}/healthz", timeout=30).json() == {"status": "ok"}
        # Every process is up, none was killed while loading.
        deadline = time.monotonic() + STACK_WAIT_S
        while (
            time.monotonic() < deadline
            and log_path.read_text(errors="replace").count("Application startup complete") < processes
        ):
            time.sleep(1)
        text = log_path.read_text(errors="replace")
        assert "died" not in text and "Terminating" not in text, text[-2000:]
        assert text.count("Application startup complete") == processes, text[-2000:]
    finally:
        os.killpg(api.pid, signal.SIGTERM)
        try:
            api.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(api.pid, signal.SIGKILL)
            api.wait()
