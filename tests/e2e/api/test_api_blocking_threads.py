"""Requests' blocking calls (key checks, rate limits, recalls, lookups) run on a pool sized by
`ENGRAM_API_BLOCKING_THREADS`, not on asyncio's default of min(32, cores + 4): with six threads on this machine, six
slow calls kept every other request, recalls included, waiting for a thread."""

from __future__ import annotations

import asyncio
import threading

import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import ApiSettings, EngramSettings


async def _side_by_side(calls: int, timeout_s: float) -> None:
    """`calls` blocking calls that finish only when all of them are running at once."""
    together = threading.Barrier(calls, timeout=timeout_s)
    await asyncio.gather(*(asyncio.to_thread(together.wait) for _ in range(calls)))


def _on_the_apps_loop(settings: EngramSettings, services: ApiServices, threads: int, calls: int) -> None:
    sized = settings.model_copy(update={"api": settings.api.model_copy(update={"blocking_threads": threads})})
    with TestClient(create_app(sized, services)) as client:
        assert client.portal is not None and client.get("/healthz").status_code == 200
        client.portal.call(_side_by_side, calls, 3.0)


def test_more_blocking_calls_run_at_once_than_the_cores_allow_by_default(
    settings: EngramSettings, services: ApiServices
) -> None:
    assert ApiSettings().blocking_threads == 32
    _on_the_apps_loop(settings, services, threads=24, calls=24)  # asyncio's default here runs 6 at once


def test_no_more_run_at_once_than_the_configured_threads(settings: EngramSettings, services: ApiServices) -> None:
    _on_the_apps_loop(settings, services, threads=3, calls=3)
    with pytest.raises(threading.BrokenBarrierError):
        _on_the_apps_loop(settings, services, threads=3, calls=4)
