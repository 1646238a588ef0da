"""Each service of the stack runs detached, in a session of its own, so that a signal to the process group that
started it (a terminal's Ctrl-C, a supervisor killing the starting script's group) does not reach it. Neo4j was the
one left in its caller's group (`nohup ... &`): when that group was killed it alone died, silently (issue 65)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import neo4j
import pytest

from engram.settings import PROJECT_ROOT, EngramSettings
from tests.support.restarts import left_running

pytestmark = pytest.mark.e2e

PID_FILES = {
    "neo4j": "neo4j/run/engram-neo4j.pid",
    "redis": "redis/redis.pid",
    "worker": "worker/worker.pid",
    "api": "api/api.pid",
}


def _pid(settings: EngramSettings, name: str) -> int:
    return int((settings.state_dir / PID_FILES[name]).read_text().strip())


@pytest.mark.parametrize("name", sorted(PID_FILES))
def test_each_service_is_in_a_session_of_its_own(settings: EngramSettings, name: str) -> None:
    pid = _pid(settings, name)
    os.kill(pid, 0)  # running
    assert os.getsid(pid) != os.getsid(0), f"{name} shares the test command's session"
    assert os.getpgid(pid) != os.getpgid(0), f"{name} is in the test command's process group"


def test_neo4j_pid_file_names_the_java_session_leader(settings: EngramSettings) -> None:
    pid = _pid(settings, "neo4j")
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"org.neo4j.server.CommunityEntryPoint" in command  # the pid file names Neo4j, not a wrapper
    assert os.getsid(pid) == pid  # it leads its own session


def test_neo4j_outlives_the_process_group_that_started_it(settings: EngramSettings, driver: neo4j.Driver) -> None:
    """Neo4j restarted by a caller in a process group of its own, then that whole group killed (-9): Neo4j answers."""
    script = PROJECT_ROOT / "infra/neo4j/neo4j.sh"
    with left_running("neo4j"):
        caller = subprocess.Popen(
            ["bash", "-c", f"{script} stop && {script} start && echo started && exec sleep 600"],
            start_new_session=True, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert caller.stdout is not None and caller.stdout.readline().strip() == "started"
            pid = _pid(settings, "neo4j")
            os.killpg(caller.pid, signal.SIGKILL)
            assert caller.wait(timeout=30) == -signal.SIGKILL
        finally:
            if caller.poll() is None:
                os.killpg(caller.pid, signal.SIGKILL)
        time.sleep(2)
        os.kill(pid, 0)  # raises ProcessLookupError were Neo4j killed with its caller's group
        records, _, _ = driver.execute_query("RETURN 1 AS one", database_=settings.neo4j.database)
        assert records[0]["one"] == 1
