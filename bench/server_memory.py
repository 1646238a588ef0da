"""Neo4j's memory as a benchmark reports it: heap in use, committed and maximum (JMX), the page cache setting and,
when the server runs on this machine, its resident set size (/proc)."""

from __future__ import annotations

import socket
from pathlib import Path

import neo4j

from graph.cypher import load

MIB = 2**20


def _resident_mib(pid: int) -> float | None:
    """VmRSS of a local process, or None (another host, or no such process)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def server_memory(driver: neo4j.Driver, database: str) -> dict[str, float | str | None]:
    with driver.session(database=database) as session:
        jvm = session.run(load("system/server_memory")).single(strict=True)
        page_cache = session.run(load("system/page_cache_setting")).single()
    pid, _, host = str(jvm["process"]).partition("@")
    local = host in {socket.gethostname(), "localhost"} and pid.isdigit()
    return {
        "heap_used_mib": round(jvm["heap_used"] / MIB, 1),
        "heap_committed_mib": round(jvm["heap_committed"] / MIB, 1),
        "heap_max_mib": round(jvm["heap_max"] / MIB, 1),
        "page_cache_setting": page_cache["value"] if page_cache else None,
        "resident_mib": _resident_mib(int(pid)) if local else None,
    }
