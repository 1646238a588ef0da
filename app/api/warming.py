"""Recall warmed before the API says it is ready, and kept warm (graph/recall/warm.py says what is warmed and why).

A thread of its own warms the process's recall engine once the app starts serving (so /healthz answers meanwhile),
then every `interval_s`; /readyz reports "warm" ok only once a warm-up finished. A warm-up that failed (Neo4j not
up yet) is tried again after `RETRY_S`.
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

from graph.recall.warm import WarmReport

log = logging.getLogger("engram.api.warm")
RETRY_S = 5.0


class Warmable(Protocol):
    def warm(self) -> WarmReport: ...  # the recall engine's (graph/recall/engine.py)


class RecallWarmer:
    def __init__(self, engine: Warmable, interval_s: float, retry_s: float = RETRY_S) -> None:
        self._engine = engine
        self._interval_s = interval_s
        self._retry_s = retry_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="engram-recall-warm", daemon=True)
        self._lock = threading.Lock()
        self._report: WarmReport | None = None  # the last warm-up that finished
        self._error: str | None = None  # why the last warm-up failed, while none has finished

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)  # a warm-up in flight ends on its own (its reads fail once the driver closes)

    def status(self) -> str:
        """Readiness's "warm" check: "ok" once a warm-up finished, else what it waits for."""
        with self._lock:
            if self._report is not None:
                return "ok"
            return f"failed, retrying: {self._error}"[:200] if self._error else "warming recall (planning statements)"

    @property
    def report(self) -> WarmReport | None:
        with self._lock:
            return self._report

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                report = self._engine.warm()
            except Exception as exc:  # Neo4j not up yet, or gone: readiness says so; try again soon
                log.warning("recall warm-up failed: %s", exc)
                with self._lock:
                    if self._report is None:
                        self._error = f"{type(exc).__name__}: {exc}"
                wait = self._retry_s
            else:
                with self._lock:
                    first = self._report is None
                    self._report = report
                    self._error = None
                if first:
                    log.info("recall warm: %d reads in %.1f s", report.calls, report.seconds)
                if not self._interval_s:
                    return
                wait = self._interval_s
            self._stop.wait(wait)
