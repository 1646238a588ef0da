"""Readiness waits for the recall warm-up (issue 48): the app says ready only once every statement recall sends has
been sent to the real Neo4j (which plans and caches it) for the warm-up's space, and it says "warming" before.

The app runs in-process on the real stack; its driver is the real one, wrapped to note what it sends. Were /readyz
not to wait for the warm-up, its first answer (asked the moment the app serves) would be 200 with statements
still unsent, and the test fails."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import PROJECT_ROOT, EngramSettings
from graph.cypher import load
from graph.recall.engine import RecallEngine
from graph.recall.warm import WARM_SPACE

READY_WITHIN_S = 600  # the warm-up plans ~100 statement shapes; on a loaded 2-core machine with an empty plan cache


class Sent:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.texts: set[str] = set()

    def add(self, query: Any, params: dict[str, Any]) -> None:
        if params.get("space") == WARM_SPACE:
            with self.lock:
                self.texts.add(query.text if isinstance(query, neo4j.Query) else str(query))

    def snapshot(self) -> set[str]:
        with self.lock:
            return set(self.texts)


class NotingSession:
    def __init__(self, session: neo4j.Session, sent: Sent) -> None:
        self._session, self._sent = session, sent

    def __enter__(self) -> NotingSession:
        self._session.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._session.close()

    def run(self, query: Any, parameters: dict[str, Any] | None = None, **params: Any) -> neo4j.Result:
        self._sent.add(query, {**(parameters or {}), **params})
        return self._session.run(query, parameters, **params)


class NotingDriver:
    """The real driver; notes the text of each statement a session runs for the warm-up's space."""

    def __init__(self, driver: neo4j.Driver, sent: Sent) -> None:
        self._driver, self._sent = driver, sent

    def session(self, **config: Any) -> NotingSession:
        return NotingSession(self._driver.session(**config), self._sent)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)


def _recall_statements() -> set[str]:
    """The text of every statement the Neo4j searcher and the aggregate reader can send."""
    searcher = ("neo4j_searcher.py", "search_statements.py")  # the searcher and its statement tables
    source = "".join(Path(PROJECT_ROOT, "graph/recall", name).read_text() for name in searcher)
    names = [
        f"recall/{p.stem}" for p in Path(PROJECT_ROOT, "cypher/recall").glob("*.cypher") if f'"{p.stem}"' in source
    ]
    return {load(name) for name in [*names, "aggregate/matching", "aggregate/tally"]}


@pytest.fixture()
def noted(settings: EngramSettings, services: ApiServices) -> Iterator[tuple[TestClient, Sent]]:
    sent = Sent()
    driver = NotingDriver(services.driver, sent)
    once = settings.model_copy(update={"api": settings.api.model_copy(update={"warm_interval_s": 0.0})})
    recall = RecallEngine(
        driver, settings.neo4j.database, services.embedder.encode, services.embedder.count_tokens,  # type: ignore[arg-type]
        config=services.recall.config, read_timeout_s=settings.neo4j.read_timeout_s,
    )  # fmt: skip
    try:
        app = create_app(once, dataclasses.replace(services, recall=recall, settings=once), warm=True)
        with TestClient(app) as client:
            yield client, sent
    finally:
        recall.close()


def test_ready_only_once_every_recall_statement_was_sent(noted: tuple[TestClient, Sent]) -> None:
    client, sent = noted
    first = client.get("/readyz")
    assert first.status_code == 503, first.json()
    assert first.json()["checks"]["warm"].startswith("warming"), first.json()
    assert {k: v for k, v in first.json()["checks"].items() if k != "warm"} == {
        "neo4j": "ok",
        "redis": "ok",
        "model": "ok",
    }
    deadline = time.monotonic() + READY_WITHIN_S
    ready = first
    while ready.status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.1)
        ready = client.get("/readyz")
    sent_when_ready = sent.snapshot()  # before anything else could send more
    assert ready.status_code == 200, ready.json()
    assert ready.json()["checks"]["warm"] == "ok"
    expected = _recall_statements()
    assert len(expected) >= 27
    missing = {text.splitlines()[0][:80] for text in expected - sent_when_ready}
    assert not missing, f"ready before these were sent: {missing}"
