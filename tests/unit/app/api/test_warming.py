"""The API's recall warmer (app/api/warming.py): readiness's "warm" check is ok only once a warm-up finished, a
failed warm-up is named and tried again, and the warm-up repeats at its interval."""

from __future__ import annotations

import threading
import time

from app.api.warming import RecallWarmer
from graph.recall.warm import WarmReport

REPORT = WarmReport(calls=3, seconds=0.1)


class Engine:
    """Warms after `release` is set; the first `failures` warm-ups raise."""

    def __init__(self, failures: int = 0) -> None:
        self.release = threading.Event()
        self.failures = failures
        self.warmed = 0

    def warm(self) -> WarmReport:
        self.release.wait(5)
        if self.failures:
            self.failures -= 1
            raise ConnectionError("Neo4j is not up yet")
        self.warmed += 1
        return REPORT


def _until(condition: object, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.01)


def test_not_ready_until_the_warm_up_finished() -> None:
    engine = Engine()
    warmer = RecallWarmer(engine, interval_s=0)
    warmer.start()
    try:
        time.sleep(0.05)
        assert warmer.status().startswith("warming") and warmer.report is None
        engine.release.set()
        _until(lambda: warmer.report is not None)
        assert warmer.status() == "ok" and warmer.report == REPORT
    finally:
        warmer.stop()


def test_a_failed_warm_up_is_named_and_tried_again() -> None:
    engine = Engine(failures=1)
    warmer = RecallWarmer(engine, interval_s=0, retry_s=0.2)
    engine.release.set()
    warmer.start()
    try:
        _until(lambda: "failed" in warmer.status() or warmer.status() == "ok")
        assert warmer.status() == "failed, retrying: ConnectionError: Neo4j is not up yet"
        _until(lambda: warmer.status() == "ok")
        assert warmer.status() == "ok" and engine.warmed == 1
    finally:
        warmer.stop()


def test_the_warm_up_repeats_at_its_interval_until_stopped() -> None:
    engine = Engine()
    engine.release.set()
    warmer = RecallWarmer(engine, interval_s=0.05)
    warmer.start()
    _until(lambda: engine.warmed >= 3)
    warmer.stop()
    assert engine.warmed >= 3
    stopped_at = engine.warmed
    time.sleep(0.2)
    assert engine.warmed == stopped_at
