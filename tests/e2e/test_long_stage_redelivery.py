"""A stage that runs longer than the broker's visibility timeout is not redelivered while its worker works on it
(the worker re-stamps the messages it holds), and runs once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from engram.settings import PROJECT_ROOT
from tests.support.slow_task import SLOW_QUEUE, slow
from workers.resources import get_redis

CELERY = str(Path(sys.executable).parent / "celery")
VISIBILITY_S = 8


def test_a_task_outliving_the_visibility_timeout_runs_once() -> None:
    name = f"slow-{uuid.uuid4().hex[:6]}"
    env = dict(os.environ, ENGRAM_WORKER_VISIBILITY_TIMEOUT_S=str(VISIBILITY_S), ENGRAM_WORKER_RESTORE_INTERVAL_S="1")
    worker = subprocess.Popen(
        [CELERY, "-A", "tests.support.slow_task:app", "worker", "-Q", SLOW_QUEUE, "-P", "threads", "-c", "2",
         "--hostname", f"{name}@%h", "--loglevel", "WARNING"],
        cwd=PROJECT_ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    counter = f"engram:test:runs:{name}"
    try:
        result = slow.apply_async(args=(counter, 2.5 * VISIBILITY_S), queue=SLOW_QUEUE)
        assert result.get(timeout=240) == 1
        time.sleep(2)  # a redelivered copy would have started by now: the free pool process takes it at once
        assert int(get_redis().get(counter) or 0) == 1
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        get_redis().delete(counter)
