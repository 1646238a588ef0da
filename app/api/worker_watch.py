"""What the API knows of the workers: whether any is alive and since when none is (for /readyz and /metrics), and a
watch that gives back what dead workers held when none is alive to do it (workers/scheduler.py `release_orphaned`).

On start it also sweeps what a crash can leave of deleted scopes in Redis (workers/scope_deletion.py `sweep`)."""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime
from typing import Any

from app.api.services import ApiServices
from workers.tasks.ingest import get_scheduler

log = logging.getLogger("engram.api.workers")


def workers_report(now: float | None = None) -> dict[str, Any]:
    """{"alive": n, "lastSeen": ISO time or None, "note": what it means}: ingest waits while none is alive."""
    now = time.time() if now is None else now
    alive, last = get_scheduler().workers_seen(now)
    seen = datetime.fromtimestamp(last, UTC).isoformat() if last is not None else None
    if alive:
        note = "ok"
    elif last is None:
        note = "no worker has been seen: ingest jobs wait (start one: make up, or infra/worker.sh start)"
    else:
        note = f"no worker alive for {now - last:.0f} s: ingest jobs wait; what dead workers held is given back"
    return {"alive": alive, "lastSeen": seen, "note": note}


class WorkerWatch:
    """A thread of the served API: the start-up sweep once, then `release_orphaned` every `interval_s`."""

    def __init__(self, services: ApiServices, interval_s: float) -> None:
        self._services = services
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="engram-worker-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)

    def _loop(self) -> None:
        swept = False
        while not self._stop.is_set():
            try:
                if not swept:
                    self._services.deletion.sweep()
                    swept = True
                get_scheduler().release_orphaned()
            except Exception as exc:  # Redis or Neo4j away: the next round tries again
                log.warning("worker watch: %s; tried again in %.0f s", exc, self._interval_s)
            self._stop.wait(self._interval_s)
