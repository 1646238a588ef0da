"""Prometheus figures at /metrics: the API's requests, recalls and errors, and the stack's jobs, queues and Redis
memory (read from Redis at each scrape).

With several API processes (`ENGRAM_API_PROCESSES`), each writes its requests, recalls and errors to files in one
directory (prometheus-client's multiprocess mode) and a scrape, whichever process answers it, sums them all; the
per-process figures (CPU, resident memory) are then left out, since they would describe one process at random.

Who may read it: the holder of `ENGRAM_API_METRICS_KEY` (a scrape-only key) or of the admin key, sent as
`Authorization: Bearer ...`; a tenant's key is refused (403), and with neither key set /metrics is off (404). The
figures are the whole service's: no label names a space or a key, so nothing here tells one tenant's jobs apart
from another's, and every label takes a bounded set of values (routes, operation kinds, the schema's root fields,
status codes, error codes, job states and stages, queue names).
"""

from __future__ import annotations

import hmac
import os
import re
import shutil
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import redis
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from engram.settings import ApiSettings
from workers.broker_stats import queue_depths, redis_memory, unacked_messages
from workers.jobs import JobStore
from workers.scheduler import LAST_SEEN, WORKERS

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ROUTES = ("/graphql", "/mcp", "/healthz", "/readyz", "/metrics", "/inspector")
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_CODE = re.compile(r"[A-Z][A-Z_]{0,39}")
# prometheus-client reads it when first imported: set before the API processes start, it makes them share figures.
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"


def share_metrics_between_processes(directory: Path) -> None:
    """Makes the API processes started after this call write their figures to `directory`, emptied first (the
    files of processes from an earlier run would count again)."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    os.environ[MULTIPROCESS_DIR] = str(directory)


REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # CPU, resident memory, open files of the API process
REQUEST_SECONDS = Histogram(
    "engram_api_request_seconds",
    "HTTP requests and WebSocket operations (status ws) by route, GraphQL operation kind and root field, and status",
    ["route", "operation", "field", "status"],
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
RECALL_SECONDS = Histogram(
    "engram_recall_seconds",
    "Recalls, from the request to the ranked items",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
ERRORS = Counter(
    "engram_api_errors",
    "Errors answered, by code (GraphQL extensions.code or HTTP refusal)",
    ["code"],
    registry=REGISTRY,
)


def count_error(code: str) -> None:
    ERRORS.labels(code if _CODE.fullmatch(code) else "OTHER").inc()


def route_of(path: str) -> str:
    """The route label: a known route or `other` (a path is the client's to choose)."""
    for route in ROUTES:
        if path == route or path.startswith(route + "/"):
            return route
    return "other"


class StackCollector(Collector):
    """Jobs by state and stage, queue depth and Redis memory, read when scraped."""

    def __init__(self, client: redis.Redis, jobs: JobStore) -> None:
        self._redis = client
        self._jobs = jobs

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("engram_redis_up", "1 when Redis answered this scrape")
        try:
            figures = list(self._figures())
        except redis.RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from figures

    def _figures(self) -> Iterable[Metric]:
        jobs = GaugeMetricFamily(
            "engram_jobs",
            "Ingest jobs Redis holds, by state and stage (finished ones for 24 h)",
            labels=["state", "stage"],
        )
        for (state, stage), count in sorted(self._jobs.counts().items()):
            jobs.add_metric([state, stage], count)
        depth = GaugeMetricFamily("engram_queue_depth", "Celery messages waiting in a queue", labels=["queue"])
        for queue, waiting in queue_depths(self._redis).items():
            depth.add_metric([queue], waiting)
        unacked = GaugeMetricFamily("engram_queue_unacked", "Celery messages taken by a worker, not yet acknowledged")
        unacked.add_metric([], unacked_messages(self._redis))
        memory = redis_memory(self._redis)
        used = GaugeMetricFamily("engram_redis_used_memory_bytes", "Redis used_memory")
        used.add_metric([], memory.used_bytes)
        cap = GaugeMetricFamily("engram_redis_maxmemory_bytes", "Redis maxmemory (0: no cap)")
        cap.add_metric([], memory.max_bytes)
        now = time.time()
        pipe = self._redis.pipeline(transaction=False)
        pipe.zcount(WORKERS, f"({now}", "+inf")
        pipe.get(LAST_SEEN)
        alive_count, last_seen = pipe.execute()
        alive = GaugeMetricFamily("engram_workers_alive", "Ingest workers whose registration has not expired")
        alive.add_metric([], int(alive_count))
        seen = GaugeMetricFamily(
            "engram_worker_last_seen_seconds", "Seconds since any worker last announced itself (-1: never)"
        )
        seen.add_metric([], now - float(last_seen) if last_seen is not None else -1)
        return [jobs, depth, unacked, used, cap, alive, seen]


def render(stack: StackCollector) -> bytes:
    """The API's figures and the stack's, in Prometheus's text format (one registry each: the stack's is per app,
    the API's per process, or summed over the processes' files)."""
    own = CollectorRegistry()
    own.register(stack)
    api = REGISTRY
    if MULTIPROCESS_DIR in os.environ:
        api = CollectorRegistry()
        multiprocess.MultiProcessCollector(api)  # type: ignore[no-untyped-call]
    return generate_latest(api) + generate_latest(own)


def scrape_refusal(key: str | None, settings: ApiSettings) -> tuple[int, str, str] | None:
    """None when `key` may read /metrics, else (HTTP status, error code, message)."""
    allowed = [k for k in (settings.metrics_key.get_secret_value(), settings.admin_key.get_secret_value()) if k]
    if not allowed:
        return 404, "NOT_FOUND", "metrics are off: set ENGRAM_API_METRICS_KEY (or ENGRAM_API_ADMIN_KEY) to scrape them"
    if key is None:
        return 401, "UNAUTHENTICATED", "send the metrics key: 'Authorization: Bearer <ENGRAM_API_METRICS_KEY>'"
    if not any(hmac.compare_digest(key.encode(), k.encode()) for k in allowed):
        return 403, "FORBIDDEN", "metrics need the metrics key or the admin key, not a space's key"
    return None
