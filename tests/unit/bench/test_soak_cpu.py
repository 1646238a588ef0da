import os
import subprocess
import sys
import time
from pathlib import Path

from bench.soak_cpu import PID_FILES, cores_used, stack_cpu_seconds


def _write_pid(state_dir: Path, name: str, pid: int) -> None:
    path = state_dir / PID_FILES[name]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{pid}\n")


def test_a_process_is_charged_for_its_children_and_stale_pid_files_are_left_out(tmp_path: Path) -> None:
    busy = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
    done = tmp_path / "done"
    # A worker-like parent: runs a child that spins 0.3 s of CPU, says so, then idles until the test is done.
    parent_code = (
        "import pathlib, subprocess, sys, time\n"
        f"subprocess.run([sys.executable, '-c', {busy!r}])\n"
        f"pathlib.Path({str(done)!r}).write_text('')\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", parent_code])
    try:
        _write_pid(tmp_path, "worker", parent.pid)
        _write_pid(tmp_path, "api", os.getpid())
        _write_pid(tmp_path, "redis", 2**22 + 1)  # beyond pid_max: no such process
        (tmp_path / PID_FILES["neo4j"]).parent.mkdir(parents=True)
        (tmp_path / PID_FILES["neo4j"]).write_text("not a pid")
        before = stack_cpu_seconds(tmp_path)
        deadline = time.monotonic() + 60
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        after = stack_cpu_seconds(tmp_path)
    finally:
        parent.kill()
        parent.wait(timeout=30)
    assert set(before) == set(after) == {"worker", "api"}
    assert after["worker"] - before["worker"] >= 0.25  # the reaped child's 0.3 s


def test_cores_used_is_cpu_seconds_over_wall_seconds_for_processes_seen_twice() -> None:
    assert cores_used({"neo4j": 10.0, "api": 5.0}, {"neo4j": 40.0, "api": 20.0, "redis": 1.0}, 30.0) == {
        "neo4j": 1.0,
        "api": 0.5,
    }
