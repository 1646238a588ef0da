"""What the soak benchmark's clients share: the record of every request and error, a classification of client
exceptions, and a minimal graphql-transport-ws exchange (one operation on a fresh socket)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pydantic
import websockets
from engram_client.exceptions import GraphQLClientGraphQLMultiError, GraphQLClientHttpError

from bench.soak_stats import Sample

WS_PROTOCOL = websockets.Subprotocol("graphql-transport-ws")


class SoakFailure(Exception):
    """An answer a well-behaved client did not expect; `kind` is what the error tally counts."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


def error_kind(exc: BaseException) -> str:
    """A short, stable name for what went wrong (the tally's key)."""
    if isinstance(exc, SoakFailure):
        return exc.kind
    if isinstance(exc, GraphQLClientHttpError):
        return f"http_{exc.status_code}"
    if isinstance(exc, GraphQLClientGraphQLMultiError):
        codes = sorted({str((e.extensions or {}).get("code", "GRAPHQL")) for e in exc.errors})
        return "graphql_" + "+".join(codes)
    if isinstance(exc, httpx.TimeoutException | asyncio.TimeoutError | TimeoutError):
        return "timeout"
    if isinstance(exc, httpx.TransportError):
        return f"transport_{type(exc).__name__}"
    if isinstance(exc, websockets.ConnectionClosed):
        code = exc.rcvd.code if exc.rcvd is not None else "none"
        return f"ws_closed_{code}"
    if isinstance(exc, pydantic.ValidationError):
        return "unreadable_answer"
    return f"exception_{type(exc).__name__}"


def error_detail(exc: BaseException) -> str:
    """What the server said: the GraphQL errors' messages and paths (the client's exception shows neither)."""
    if isinstance(exc, GraphQLClientGraphQLMultiError):
        return "; ".join(f"{'.'.join(map(str, e.path or []))}: {e.message}" for e in exc.errors)
    return repr(exc)


IDLE_PHASES = ("idle", "idle_during", "idle_after")


@dataclass
class Record:
    """Everything the run measured: request samples, errors by kind per side, examples of each error kind."""

    started: float = field(default_factory=time.perf_counter)
    samples: list[Sample] = field(default_factory=list)
    errors_well_behaved: Counter[str] = field(default_factory=Counter)
    hostile_outcomes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    # setup, idle, load (with idle_during pauses), drain, verify, idle_after: only "load" samples are the under-load
    # figures; the samples of an idle phase carry its name as a suffix (recall_idle, recall_idle_after)
    phase: str = "setup"

    def now(self) -> float:
        return time.perf_counter() - self.started

    def error(self, kind: str, detail: str) -> None:
        self.errors_well_behaved[kind] += 1
        self.examples.setdefault(kind, detail[:400])

    def _named(self, operation: str) -> str:
        return f"{operation}_{self.phase}" if self.phase in IDLE_PHASES else operation

    def note(self, operation: str, ms: float) -> None:
        """A figure the service reported about a request just measured (e.g. the recall engine's own time)."""
        if self.phase != "setup":
            self.samples.append(Sample(self.now(), self._named(operation), ms, True))

    @asynccontextmanager
    async def measure(self, operation: str) -> AsyncIterator[None]:
        """Times the block as one request of `operation`; an exception in it is a well-behaved client's error
        (recorded, not raised: the tenant carries on as a real client would)."""
        at = self.now()
        started = time.perf_counter()
        ok = True
        try:
            yield
        except Exception as exc:  # every failure is counted by kind, none may stop the run
            ok = False
            self.error(error_kind(exc), f"{operation}: {error_detail(exc)}")
        finally:
            if self.phase != "setup":
                self.samples.append(Sample(at, self._named(operation), 1000 * (time.perf_counter() - started), ok))


async def ws_operation(
    url: str, key: str | None, query: str, variables: dict[str, Any] | None = None, timeout_s: float = 60.0
) -> list[dict[str, Any]]:
    """One operation over a fresh graphql-transport-ws socket: connection_init with the key, subscribe, the `next`
    payloads until `complete`. An `error` message raises SoakFailure with its code."""
    async with asyncio.timeout(timeout_s):
        async with websockets.connect(url, subprotocols=[WS_PROTOCOL], max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key} if key else {}}))
            ack = json.loads(await ws.recv())
            if ack.get("type") != "connection_ack":
                raise SoakFailure("ws_no_ack", str(ack))
            op_id = uuid.uuid4().hex
            await ws.send(
                json.dumps(
                    {"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables or {}}}
                )
            )
            payloads: list[dict[str, Any]] = []
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif message.get("type") == "next":
                    payloads.append(message["payload"])
                elif message.get("type") == "error":
                    codes = sorted({str((e.get("extensions") or {}).get("code")) for e in message["payload"]})
                    raise SoakFailure("ws_error_" + "+".join(codes), json.dumps(message["payload"])[:300])
                elif message.get("type") == "complete":
                    return payloads
            raise SoakFailure("ws_closed_early")
