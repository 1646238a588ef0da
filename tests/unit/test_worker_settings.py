"""Worker and API settings from the environment: values that would break a lock, a limit or a process are refused."""

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


def test_time_limits_refuse_a_soft_limit_not_below_the_hard_one(monkeypatch: pytest.MonkeyPatch) -> None:
    assert WorkerSettings().time_limits("write") == (1800, 1900)
    assert WorkerSettings().time_limits("consolidation") == (5 * 3600, 5 * 3600 + 300)
    monkeypatch.setenv("ENGRAM_WORKER_STAGE_TIME_LIMITS_S", '{"write": [3700, 3600]}')
    with pytest.raises(ValidationError, match="time limits of write"):
        WorkerSettings()
    monkeypatch.setenv("ENGRAM_WORKER_STAGE_TIME_LIMITS_S", '{"write": "an hour"}')
    with pytest.raises(ValidationError, match="stage_time_limits_s"):
        WorkerSettings()
    monkeypatch.setenv("ENGRAM_WORKER_STAGE_TIME_LIMITS_S", '{"write": [3600, 3700]}')
    assert WorkerSettings().time_limits("write") == (3600, 3700)


def test_niceness_is_a_unix_niceness_and_math_needs_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.settings import ApiSettings

    assert WorkerSettings().nice == 19
    for bad in ("-5", "20", "low"):
        monkeypatch.setenv("ENGRAM_WORKER_NICE", bad)
        with pytest.raises(ValidationError, match="nice"):
            WorkerSettings()
    assert ApiSettings().math_threads == 1
    monkeypatch.setenv("ENGRAM_API_MATH_THREADS", "0")
    with pytest.raises(ValidationError, match="math_threads"):
        ApiSettings()
    monkeypatch.delenv("ENGRAM_WORKER_NICE")
    assert WorkerSettings().math_threads == 0  # cores / concurrency
    monkeypatch.setenv("ENGRAM_WORKER_MATH_THREADS", "-1")
    with pytest.raises(ValidationError, match="math_threads"):
        WorkerSettings()


def test_the_api_needs_a_process_and_dimensions_a_gds_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.settings import ApiSettings
    from graph.consolidation.run import ConsolidationOptions

    assert ApiSettings().processes == 2
    for bad in ("0", "two"):
        monkeypatch.setenv("ENGRAM_API_PROCESSES", bad)
        with pytest.raises(ValidationError, match="processes"):
            ApiSettings()
    assert ConsolidationOptions().dimension_threads == 1
    for threads in (0, 5):  # OpenGDS runs 4 threads at most
        with pytest.raises(ValidationError, match="dimension_threads"):
            ConsolidationOptions(dimension_threads=threads)
