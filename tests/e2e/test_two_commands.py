"""`make demo`, then `make test` (issue 47): the test command runs a stack of its own, on its own ports and in its own
state folder (infra/test.sh), so a stack the user left running (the demo's: default ports, `.engram/`, an API without
this run's admin key) is neither what the tests talk to nor stopped by them.

These checks run inside the test command: the settings point at the test stack, and the Neo4j, Redis, worker and
API that answer there are the processes of that stack's pid files. Whatever runs on the default ports is only looked
at from outside (which processes listen there), never talked to. The other half of the sequence, that the user's
stack is still up after the run, is `bash tests/support/two_commands.sh` (README, "The two commands")."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import neo4j
import psutil
import pytest
import redis

from engram.settings import ApiSettings, EngramSettings, Neo4jSettings, RedisSettings
from graph.cypher import load
from workers.celery_app import app as celery_app

pytestmark = pytest.mark.skipif(
    not os.environ.get("ENGRAM_TEST_STACK"),
    reason="checks the test command's own stack: run through infra/test.sh (make test), which sets ENGRAM_TEST_STACK",
)


def _port(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None, url
    return port


# Where a stack started by `make demo` / `make up` lives: the settings' defaults (lib.sh has the same ones).
DEFAULT_STATE = Path(str(EngramSettings.model_fields["state_dir"].default))
DEFAULT_PORTS = {
    "neo4j bolt": _port(str(Neo4jSettings.model_fields["uri"].default)),
    "neo4j http": int(Neo4jSettings.model_fields["http_port"].default),
    "redis": _port(str(RedisSettings.model_fields["url"].default)),
    "api": int(ApiSettings.model_fields["port"].default),
}


def _ports(settings: EngramSettings) -> dict[str, int]:
    return {
        "neo4j bolt": _port(settings.neo4j.uri),
        "neo4j http": settings.neo4j.http_port,
        "redis": _port(settings.redis.url),
        "api": settings.api.port,
    }


def _pid(settings: EngramSettings, pid_file: str) -> int:
    """The pid a test stack's service wrote (infra/: neo4j/run/engram-neo4j.pid, redis/redis.pid, ...)."""
    pid = int((settings.state_dir / pid_file).read_text().strip())
    assert psutil.pid_exists(pid), f"{pid_file}: {pid} is not running"
    return pid


def _listeners(port: int) -> set[int]:
    """The processes listening on a loopback TCP port (read from /proc: nothing is sent to them)."""
    return {
        c.pid
        for c in psutil.net_connections("tcp")
        if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid is not None
    }


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


def test_the_settings_point_at_the_test_stack_not_at_the_default_one(settings: EngramSettings) -> None:
    state = settings.state_dir.resolve()
    assert state == Path(os.environ["ENGRAM_TEST_STACK"]).resolve()
    assert state != DEFAULT_STATE.resolve()
    ports = _ports(settings)
    for name, default in DEFAULT_PORTS.items():
        assert ports[name] != default, f"{name}: the tests use the default port {default}, a user's stack's"
    # The scripts that started the stack (and that tests run to restart its services) read the same places.
    assert os.environ["ENGRAM_STATE"] == os.environ["ENGRAM_STATE_DIR"]
    assert ports["neo4j bolt"] == int(os.environ["NEO4J_BOLT_PORT"])
    assert ports["neo4j http"] == int(os.environ["NEO4J_HTTP_PORT"])
    assert ports["redis"] == int(os.environ["REDIS_PORT"])
    assert ports["api"] == int(os.environ["ENGRAM_API_PORT"])


def test_the_tests_neo4j_is_the_test_stacks(driver: neo4j.Driver, settings: EngramSettings) -> None:
    pid = _pid(settings, "neo4j/run/engram-neo4j.pid")
    with driver.session(database=settings.neo4j.database) as session:
        process = session.run(load("system/server_memory")).single(strict=True)["process"]
    assert str(process).partition("@")[0] == str(pid)  # the JVM the driver reaches is the one the pid file names
    assert _listeners(settings.neo4j.http_port) == {pid}
    assert pid in _listeners(_port(settings.neo4j.uri))


def test_the_tests_redis_is_the_test_stacks(settings: EngramSettings) -> None:
    pid = _pid(settings, "redis/redis.pid")
    client = redis.Redis.from_url(settings.redis.url, socket_timeout=5)
    try:
        server = client.info("server")
        folder = client.config_get("dir")["dir"]
    finally:
        client.close()
    assert server["process_id"] == pid and server["tcp_port"] == _port(settings.redis.url)
    assert Path(str(folder)).resolve() == (settings.state_dir / "redis").resolve()


def test_the_worker_that_takes_the_tests_jobs_is_the_test_stacks(settings: EngramSettings) -> None:
    pid = _pid(settings, "worker/worker.pid")
    with celery_app.connection_for_write() as connection:  # the test Redis: only its workers can answer
        stats = celery_app.control.inspect(timeout=5, connection=connection).stats() or {}
    stack_workers = {node: s["pid"] for node, s in stats.items() if node.startswith("engram@")}
    assert list(stack_workers.values()) == [pid], stats


def test_the_tests_api_is_the_test_stacks_and_knows_this_runs_admin_key(settings: EngramSettings) -> None:
    """The failure of issue 47: the demo's API, kept by `stack.sh up`, answered the tests' admin key with 401."""
    group = _pid(settings, "api/api.pid")  # the API runs in a process group of its own (infra/api.sh)
    listening = _listeners(settings.api.port)
    assert listening and {_group(pid) for pid in listening} == {group}
    admin_key = settings.api.admin_key.get_secret_value()
    assert admin_key, "infra/test.sh sets ENGRAM_API_ADMIN_KEY for the API under test"
    base = f"http://{settings.api.host}:{settings.api.port}"
    scrape = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {admin_key}"}, timeout=30)
    assert scrape.status_code == 200, scrape.text


def test_no_test_stack_service_listens_on_a_default_port(settings: EngramSettings) -> None:
    """Whatever holds the default ports (a user's stack, or nothing) is not part of the test stack."""
    ours = {_pid(settings, "neo4j/run/engram-neo4j.pid"), _pid(settings, "redis/redis.pid")}
    api_group = _pid(settings, "api/api.pid")
    for name, port in DEFAULT_PORTS.items():
        for pid in _listeners(port):
            assert pid not in ours and _group(pid) != api_group, f"the test stack listens on the default {name} port"
