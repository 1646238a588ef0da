"""A second API host started beside a live one with another admin key, or another embedder family, is refused at
start with a message naming the difference (app/api/host_beat.py); with the same ones it is not. The test stack's
API is the live host (it announces itself in Redis every few seconds)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import redis

from app.api.host_beat import API_HOSTS, HostRefused, admin_fingerprint, api_hosts, refuse_unlike_hosts
from engram.settings import PROJECT_ROOT, EngramSettings

pytestmark = pytest.mark.e2e


def _live_host(settings: EngramSettings) -> None:
    with redis.Redis.from_url(settings.redis.url) as client:
        deadline = time.time() + 30
        while not any(host.alive(time.time()) for host in api_hosts(client)):
            assert time.time() < deadline, "the test stack's API never announced itself"
            time.sleep(0.5)


def _start_second_host(settings: EngramSettings, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m app.api.server` on another port (it is refused before it loads anything, or killed at 20 s)."""
    environ = {**os.environ, "ENGRAM_API_PORT": str(settings.api.port + 7), "ENGRAM_API_PROCESSES": "1", **env}
    command = [sys.executable, "-m", "app.api.server"]
    try:
        return subprocess.run(command, env=environ, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"the second host was not refused: {expired.stderr!r}") from None


def test_a_second_api_host_with_another_admin_key_is_refused_at_start(settings: EngramSettings) -> None:
    _live_host(settings)
    started = time.monotonic()
    refused = _start_second_host(settings, ENGRAM_API_ADMIN_KEY="not-the-key-the-other-hosts-use")
    assert refused.returncode != 0
    assert "refused to start" in refused.stderr and "admin key (ENGRAM_API_ADMIN_KEY" in refused.stderr
    ours = admin_fingerprint(settings.api.admin_key.get_secret_value())
    assert f"(fingerprint {ours})" in refused.stderr  # the live host's, named; never a key
    assert settings.api.admin_key.get_secret_value() not in refused.stderr
    assert time.monotonic() - started < 20  # before it loads the model


def test_a_second_api_host_with_another_embedder_is_refused_at_start(settings: EngramSettings) -> None:
    _live_host(settings)
    other = "int8" if settings.embedding.onnx_variant == "fp32" else "fp32"
    refused = _start_second_host(settings, ENGRAM_EMBEDDING_BACKEND="onnx", ENGRAM_EMBEDDING_ONNX_VARIANT=other)
    assert refused.returncode != 0
    assert "refused to start" in refused.stderr and f"/{other}" in refused.stderr, refused.stderr
    assert "ENGRAM_EMBEDDING_" in refused.stderr


def test_a_host_like_the_live_ones_is_not_refused_and_a_dead_unlike_one_does_not_count(
    settings: EngramSettings,
) -> None:
    _live_host(settings)
    refuse_unlike_hosts(settings)  # same key, same embedder: no refusal
    with redis.Redis.from_url(settings.redis.url) as client:
        gone = "host-gone 10.0.0.8:8000"
        entry = '{"seen": %f, "expires": %f, "pid": 1, "admin": "0000", "embedder": "x/int8"}'
        client.hset(API_HOSTS, gone, entry % (time.time() - 60, time.time() - 45))
        try:
            refuse_unlike_hosts(settings)  # a dead host with another key does not block a start
            client.hset(API_HOSTS, gone, entry % (time.time(), time.time() + 15))
            with pytest.raises(HostRefused, match="host-gone"):
                refuse_unlike_hosts(settings)
        finally:
            client.hdel(API_HOSTS, gone)
