"""Worker settings read from the environment: a restore-lock expiry too short to cover a restore is refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engram.settings import WorkerSettings


def test_restore_lock_defaults_to_a_minute_and_refuses_a_few_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert WorkerSettings().restore_lock_s == 60
    for bad in ("2", "-1", "soon"):
        monkeypatch.setenv("ENGRAM_WORKER_RESTORE_LOCK_S", bad)
        with pytest.raises(ValidationError, match="restore_lock_s"):
            WorkerSettings()


def test_held_locks_expire_within_a_minute_and_refuse_less_than_a_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    assert WorkerSettings().lock_ttl_s == 60
    monkeypatch.setenv("ENGRAM_WORKER_LOCK_TTL_S", "1")
    with pytest.raises(ValidationError, match="lock_ttl_s"):
        WorkerSettings()
