"""Locks held past their expiry while their holder works (heartbeat), released when it stops: with a one-second
expiry, a run that takes three seconds keeps a second run out and releases without LockNotOwnedError."""

from __future__ import annotations

import time
import uuid

import pytest

from engram.settings import get_settings
from workers.held_lock import HeldLock, held_lock
from workers.resources import get_redis
from workers.tasks.consolidate import consolidate_locked, consolidation_lock_name


def test_a_lock_stays_held_past_its_expiry_while_its_holder_works() -> None:
    name = f"engram:test:lock:{uuid.uuid4().hex}"
    holder = HeldLock(get_redis(), name, ttl_s=1.0)
    assert holder.acquire()
    time.sleep(3.0)
    assert not HeldLock(get_redis(), name, ttl_s=1.0).acquire()
    holder.release()
    assert not holder.lost
    with held_lock(get_redis(), name, ttl_s=1.0) as taken:
        assert taken
    assert get_redis().get(name) is None


def test_a_consolidation_skips_while_a_run_outlives_the_lock_expiry(
    space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGRAM_WORKER_LOCK_TTL_S", "3")
    get_settings.cache_clear()
    try:
        with held_lock(get_redis(), consolidation_lock_name(space), ttl_s=1.0) as taken:
            assert taken
            time.sleep(3.0)
            assert consolidate_locked(space).skipped
    finally:
        monkeypatch.delenv("ENGRAM_WORKER_LOCK_TTL_S")
        get_settings.cache_clear()
    assert get_redis().get(consolidation_lock_name(space)) is None
