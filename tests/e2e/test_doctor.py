"""`engram doctor` reports the job queues' depth and Redis's memory headroom, and warns when Redis is nearly full
(Redis runs `noeviction`: full means no job can be queued)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
import redis

from engram.settings import PROJECT_ROOT, EngramSettings


def doctor() -> subprocess.CompletedProcess[str]:
    """This checkout's CLI (the venv's `engram` may be another checkout's editable install)."""
    command = [sys.executable, "-c", "from app.cli import main; main()", "doctor"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT)


@pytest.fixture()
def client(settings: EngramSettings) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(settings.redis.url)
    yield connection
    connection.close()


def test_doctor_reports_queue_depth_and_warns_when_redis_is_nearly_full(client: redis.Redis) -> None:
    cap = int(client.config_get("maxmemory")["maxmemory"])
    used = int(client.info("memory")["used_memory"])  # type: ignore[index]
    try:
        # 90% full: still room for the doctor's own ping, and over the 80% warning line.
        client.config_set("maxmemory", str(int(used / 0.9)))
        nearly_full = doctor()
    finally:
        client.config_set("maxmemory", str(cap))
    out = nearly_full.stdout
    assert re.search(r"ok\s+Job queues: cpu: \d+ waiting, gpu: \d+ waiting, \d+ unacknowledged", out), out
    warned = re.search(r"WARN Redis memory: [\d.]+ MB used of \d+ MB maxmemory \((\d+)%\)", out)
    assert warned and int(warned.group(1)) >= 80, out  # Redis's use moves a little between our read and the doctor's
    assert "fix: above 80%" in out and "warning(s)" in out
    assert nearly_full.returncode == 0, out  # a warning does not fail the doctor

    healthy = doctor().stdout
    assert re.search(rf"ok\s+Redis memory: [\d.]+ MB used of {cap // 1024 // 1024} MB maxmemory \(\d+%\)", healthy)
    assert "WARN Redis memory" not in healthy
