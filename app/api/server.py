"""The FastAPI application: GraphQL at /graphql (HTTP and graphql-transport-ws), MCP at /mcp, /healthz (live),
/readyz (Neo4j, Redis and the model answer, recall is warm), /metrics, the memory inspector at /inspector, limits,
auth."""

from __future__ import annotations

import asyncio
import logging
import logging.config
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from app.api.context import ApiContext
from app.api.host_beat import HostRefused, announced, refuse_unlike_hosts
from app.api.inspector import mount_inspector
from app.api.json_body import JsonBodyChecks
from app.api.limits import BodySizeLimit
from app.api.mcp_mount import mount_mcp
from app.api.metrics import (
    CONTENT_TYPE,
    StackCollector,
    count_error,
    render,
    scrape_refusal,
    share_metrics_between_processes,
)
from app.api.requests import ObservedRequests
from app.api.schema.build import build_schema
from app.api.security import Gate, LimiterUnavailable, RateLimited, client_address, presented_key
from app.api.services import ApiServices, close_services, create_services
from app.api.sockets import EngramGraphQLRouter, SocketContext, SocketPolicy
from app.api.warming import RecallWarmer
from app.api.worker_watch import WorkerWatch, workers_report
from engram.logs import uvicorn_log_config
from engram.runtime import settle_heap
from engram.settings import ApiSettings, EngramSettings, get_settings
from graph.api_keys import InvalidApiKey

log = logging.getLogger("engram.api")


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    count_error(code)
    return JSONResponse(
        {"errors": [{"message": message, "extensions": {"code": code}}]}, status_code=status, headers=headers
    )


def create_app(
    settings: EngramSettings | None = None, services: ApiServices | None = None, warm: bool | None = None
) -> FastAPI:
    """The app; `services` lets a test or a benchmark share one process's driver and model. `warm`: whether it warms
    recall before /readyz says ready (default: when it owns its services, as a served process does; the many test
    apps sharing one set of services would each warm it again)."""
    settings = settings or get_settings()
    api = settings.api
    owned = services is None
    warms = owned if warm is None else warm

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # asyncio.to_thread runs on the loop's default executor: sized by the settings, not by the core count.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(api.blocking_threads, thread_name_prefix="engram-api")
        )
        app.state.services = services or await asyncio.to_thread(create_services, settings)
        app.state.gate = Gate(app.state.services.keys, api, app.state.services.redis)
        app.state.stack = StackCollector(app.state.services.redis, app.state.services.jobs)
        app.state.socket_policy = SocketPolicy(api, app.state.services.redis)
        settle_heap()  # the model is loaded: full collections stop walking it
        # Recall's statements planned and its connections opened before /readyz says ready (app/api/warming.py).
        app.state.warmer = RecallWarmer(app.state.services.recall, api.warm_interval_s) if warms else None
        if app.state.warmer is not None:
            app.state.warmer.start()
        # The served process gives back what dead workers held, and sweeps deleted scopes' leftovers at start.
        app.state.worker_watch = (
            WorkerWatch(app.state.services, settings.worker.reconcile_interval_s) if owned else None
        )
        if app.state.worker_watch is not None:
            app.state.worker_watch.start()
        async with mcp_server.session_manager.run(), announced(app.state.services, owned):
            yield
        if app.state.worker_watch is not None:
            await asyncio.to_thread(app.state.worker_watch.stop)
        if app.state.warmer is not None:
            await asyncio.to_thread(app.state.warmer.stop)
        if owned:
            close_services(app.state.services)

    async def context(connection: HTTPConnection) -> ApiContext:
        services_: ApiServices = connection.app.state.services
        gate: Gate = connection.app.state.gate
        key = presented_key(connection.headers)
        if isinstance(connection, WebSocket):
            # The socket is admitted at connection_init (which may carry the key), then each operation on it.
            policy: SocketPolicy = connection.app.state.socket_policy
            return SocketContext(services_, gate, policy, key, client_address(connection.scope))
        return ApiContext(services_, await asyncio.to_thread(gate.admit, key, client_address(connection.scope)))

    app = FastAPI(
        title="Engram",
        description="Long-term memory for LLM agents: GraphQL at /graphql",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    router = EngramGraphQLRouter(
        build_schema(api),
        settings=api,
        context_getter=context,
        graphql_ide="graphiql" if api.development else None,
        allow_queries_via_get=False,  # a GET must never mutate or be cached by a proxy
        # Keys travel in headers, never cookies, so a cross-site form post cannot carry one: uploads are safe.
        multipart_uploads_enabled=True,
    )
    app.include_router(router, prefix="/graphql")
    # The agents' door: MCP tools over streamable HTTP, calling this app's GraphQL in-process.
    mcp_server = mount_mcp(app)
    # The memory inspector (web/), same origin, with its Content-Security-Policy.
    mount_inspector(app)

    _add_error_answers(app)
    _add_service_routes(app, api)
    app.add_middleware(JsonBodyChecks)  # inside the size limit: what it buffers is bounded
    app.add_middleware(BodySizeLimit, max_bytes=api.max_body_bytes)
    app.add_middleware(ObservedRequests)  # outermost: times every request, the refused ones included
    return app


def _add_error_answers(app: FastAPI) -> None:
    """The answers to a refused key, a rate limit and an unavailable limiter, in GraphQL's error shape."""

    @app.exception_handler(InvalidApiKey)
    async def invalid_key(_: Request, exc: InvalidApiKey) -> JSONResponse:
        return _error(401, "UNAUTHENTICATED", f"{exc}: send a valid key as 'Authorization: Bearer egk_...'")

    @app.exception_handler(RateLimited)
    async def rate_limited(_: Request, exc: RateLimited) -> JSONResponse:
        return _error(429, "RATE_LIMITED", str(exc), headers={"Retry-After": str(exc.retry_after_s)})

    @app.exception_handler(LimiterUnavailable)
    async def limiter_unavailable(_: Request, exc: LimiterUnavailable) -> JSONResponse:
        return _error(503, "SERVICE_UNAVAILABLE", str(exc), headers={"Retry-After": str(exc.retry_after_s)})


def _add_service_routes(app: FastAPI, api: ApiSettings) -> None:
    """The routes besides GraphQL, MCP and the inspector: the front page, liveness, readiness and metrics."""

    @app.get("/", include_in_schema=False)
    async def front(request: Request) -> Response:
        """A person at `/`: the inspector when this API serves one, else the GraphQL page (development mode), else
        where everything is."""
        if any(str(getattr(route, "path", "")).startswith("/inspector") for route in request.app.routes):
            return RedirectResponse("/inspector", status_code=307)
        if api.development:
            return RedirectResponse("/graphql", status_code=307)
        return JSONResponse(
            {
                "service": "engram",
                "graphql": "/graphql (POST; the browser page with ENGRAM_API_DEVELOPMENT=1)",
                "mcp": "/mcp",
                "health": ["/healthz", "/readyz"],
                "docs": "docs/api.md in the repository",
            }
        )

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """Liveness: the process serves requests (its model is loaded: the app starts serving after that)."""
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: Neo4j and Redis answer this process, its embedding model is loaded and recall is warm (its
        statements planned). 503 names what is not. `workers` says how many ingest workers are alive, and when one
        was last seen (ingest waits while none is)."""
        checks = await asyncio.to_thread(readiness, request.app.state.services, request.app.state.warmer)
        ready = all(check == "ok" for check in checks.values())
        body: dict[str, Any] = {"status": "ready" if ready else "not ready", "checks": checks}
        try:  # the API serves recall without workers: their absence is told, not a reason to take it out of service
            body["workers"] = await asyncio.to_thread(workers_report)
        except Exception as exc:
            body["workers"] = {"alive": None, "lastSeen": None, "note": f"{type(exc).__name__}: {exc}"[:200]}
        return JSONResponse(body, 200 if ready else 503)

    @app.get("/metrics")
    async def metrics(request: Request) -> Response:
        """Prometheus text format; only for the metrics or admin key (app/api/metrics.py says why)."""
        refusal = scrape_refusal(presented_key(request.headers), api)
        if refusal is not None:
            return _error(*refusal)
        body = await asyncio.to_thread(render, request.app.state.stack)
        return Response(body, media_type=CONTENT_TYPE)


def readiness(services: ApiServices, warmer: RecallWarmer | None = None) -> dict[str, str]:
    """Each dependency of a request: "ok", or why not (one short line); with a `warmer`, whether recall is warm."""
    checks: dict[str, str] = {}
    try:
        services.driver.execute_query("RETURN 1", database_=services.settings.neo4j.database)
        checks["neo4j"] = "ok"
    except Exception as exc:
        checks["neo4j"] = f"{type(exc).__name__}: {exc}"[:200]
    try:
        services.redis.ping()
        checks["redis"] = "ok"
    except Exception as exc:
        checks["redis"] = f"{type(exc).__name__}: {exc}"[:200]
    try:
        services.embedder.encode(["ready"])  # the model is loaded before the app serves: this proves it runs
        checks["model"] = "ok"
    except Exception as exc:
        checks["model"] = f"{type(exc).__name__}: {exc}"[:200]
    if warmer is not None:
        checks["warm"] = warmer.status()
    return checks


def main() -> None:
    """Run the API with uvicorn on the configured host and port, in `ENGRAM_API_PROCESSES` processes."""
    import uvicorn

    settings = get_settings()
    logging.config.dictConfig(uvicorn_log_config(settings.log_format))
    try:  # another admin key or embedder than the API hosts alive now: refused, saying which
        refuse_unlike_hosts(settings)
    except HostRefused as exc:
        raise SystemExit(f"engram API: refused to start: {exc}") from None
    processes = settings.api.processes
    several = processes > 1
    if several:
        # Each process builds its own app (and driver, and model) from the environment; their metrics meet in files.
        share_metrics_between_processes(settings.state_dir / "api" / "metrics")
    uvicorn.run(
        "app.api.server:create_app" if several else create_app(settings),
        factory=several,
        workers=processes if several else None,
        host=settings.api.host,
        port=settings.api.port,
        timeout_worker_healthcheck=settings.api.process_healthcheck_timeout_s,
        log_config=uvicorn_log_config(settings.log_format),
        access_log=False,  # app/api/requests.py logs each request, with its id, operation and time
    )


if __name__ == "__main__":
    main()
