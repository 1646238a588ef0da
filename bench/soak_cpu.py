"""Where the cores go during a soak: the CPU time of each process of the stack under test, read from the pid files
the stack writes (`infra/`), with every child included (the worker's pool processes, live or already reaped)."""

from __future__ import annotations

from pathlib import Path

import psutil

# Pid files under the state directory, as infra/neo4j, api.sh, worker.sh and redis write them.
PID_FILES = {
    "neo4j": Path("neo4j/run/engram-neo4j.pid"),
    "api": Path("api/api.pid"),
    "worker": Path("worker/worker.pid"),
    "redis": Path("redis/redis.pid"),
}


def _seconds(process: psutil.Process) -> float:
    """User + system CPU seconds of a process, its reaped children's and its live descendants'."""
    times = process.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in process.children(recursive=True):
        try:
            child_times = child.cpu_times()
        except psutil.Error:  # exited between the listing and the read: its time went to children_* above
            continue
        total += child_times.user + child_times.system
    return float(total)


def stack_cpu_seconds(state_dir: Path) -> dict[str, float]:
    """CPU seconds so far of each stack process found running (a missing or stale pid file is left out)."""
    found = {}
    for name, relative in PID_FILES.items():
        try:
            found[name] = _seconds(psutil.Process(int((state_dir / relative).read_text().strip())))
        except (OSError, ValueError, psutil.Error):
            continue
    return found


def cores_used(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    """Each process's average number of busy cores between two readings `seconds` apart."""
    return {name: round((after[name] - before[name]) / seconds, 2) for name in after if name in before}
