"""`engram doctor` names each worker host and API host it can see: the workers answering Celery's inspect with their
heartbeats in Redis, and the API hosts' heartbeats (app/api/host_beat.py), a dead one told as such."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator

import pytest
import redis

from app.api.host_beat import API_HOSTS
from app.cli.doctor import check_api_hosts, check_worker
from engram.settings import EngramSettings

pytestmark = pytest.mark.e2e


@pytest.fixture()
def client(settings: EngramSettings) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(settings.redis.url)
    yield connection
    connection.close()


def test_doctor_names_the_worker_host_with_its_inspect_answer_and_heartbeat(settings: EngramSettings) -> None:
    result = check_worker(settings)
    assert result.ok, result.detail
    host = re.escape(f"engram@{socket.gethostname()}")
    assert re.search(
        rf"1 worker host\(s\): {host} \(pid \d+, answers inspect; heartbeat \d+ s ago, \d slot", result.detail
    )


def test_doctor_names_each_api_host_alive_and_dead(settings: EngramSettings, client: redis.Redis) -> None:
    deadline = time.time() + 30  # the served API announces itself every reconcile interval
    while not client.hlen(API_HOSTS) and time.time() < deadline:
        time.sleep(0.5)
    gone = "host-that-died 10.0.0.9:8000"
    client.hset(API_HOSTS, gone, json.dumps({"seen": time.time() - 120, "expires": time.time() - 105, "pid": 4242}))
    try:
        result = check_api_hosts(settings)
    finally:
        client.hdel(API_HOSTS, gone)
    assert result.ok, result.detail
    ours = re.escape(f"{socket.gethostname()} {settings.api.host}:{settings.api.port}")
    # Other API processes of the test run (a restarted or second API host) may still be within their heartbeat: the
    # count is theirs too, so this host alive and the dead one expired are what is checked.
    assert re.search(rf"(\d+) alive of (\d+) seen: .*{ours} \(pid \d+, heartbeat \d+ s ago\)", result.detail), (
        result.detail
    )
    assert re.search(r"host-that-died 10\.0\.0\.9:8000 \(pid 4242, heartbeat EXPIRED, last 12\d s ago\)", result.detail)

    client.hset(API_HOSTS, gone, json.dumps({"seen": time.time() - 2 * 86400, "expires": 0, "pid": 1}))
    check_api_hosts(settings)
    assert not client.hexists(API_HOSTS, gone)  # a day dead: dropped from the list
