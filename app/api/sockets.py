"""graphql-transport-ws held to the rules of HTTP.

A socket is admitted at `connection_init` with a valid key (else closed: 4401 no key, 4403 wrong or revoked key,
4408 no `connection_init` in time, 4429 too many sockets for the key or too many failed authentications from the
client, 1013 the request counter is unavailable). Every operation on it then passes the
same gate as an HTTP request (the key looked up again, so revocation is honoured at once, and counted against
the key's rate limit) and runs with its own context (caller, DataLoaders, cost count); while the socket is open
its key is checked again every `ws_reauth_interval_s`, so a running subscription ends when the key is revoked.
The body-size limit applies to every message (app/api/limits.py).
"""

from __future__ import annotations

import asyncio
import uuid
from contextlib import suppress
from contextvars import ContextVar
from datetime import timedelta
from pathlib import Path
from typing import Any

import redis
from strawberry.fastapi import GraphQLRouter
from strawberry.schema import BaseSchema
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from strawberry.subscriptions.protocols.graphql_transport_ws.types import ConnectionInitMessage, SubscribeMessage

from app.api.context import ApiContext
from app.api.metrics import count_error
from app.api.security import Caller, Gate, LimiterUnavailable, RateLimited
from app.api.services import ApiServices
from engram.settings import ApiSettings
from graph.api_keys import InvalidApiKey
from graphql import GraphQLError

# The context of the operation a task runs: set while strawberry creates the operation's task, which copies it.
_operation_context: ContextVar[ApiContext | None] = ContextVar("engram_socket_operation", default=None)


# Sockets open per key, shared by every API process: a sorted set of socket ids scored by when their lease ends.
# ARGV: socket id, cap, lease (ms), mode. "open" takes a place if the key holds fewer than the cap; "renew" extends
# a lease only while it is held (a closed socket's renewal, still in flight, must not take its place back). The key
# expires with the longest lease it holds. Returns 1 when the socket holds its place.
_LEASE_SCRIPT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local until_ms = now_ms + tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if ARGV[4] == 'renew' then
  if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
elseif redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], until_ms, ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3])) end
return 1
"""


class SocketPolicy:
    """The per-key socket cap, counted in Redis so that it holds across API processes.

    Each admitted socket holds a lease of `lease_s` (three re-authentication intervals, at least 30 s) that it
    renews at every re-authentication; `close` gives its place back at once, and a process that dies without
    closing its sockets holds their places until their leases end.
    """

    def __init__(self, settings: ApiSettings, client: redis.Redis, prefix: str = "engram:sockets") -> None:
        self.settings = settings
        self._redis = client
        self._prefix = prefix
        self._lease_script = client.register_script(_LEASE_SCRIPT)
        self.lease_s = max(3 * settings.ws_reauth_interval_s, 30.0)

    def _name(self, holder: str) -> str:
        return f"{self._prefix}:{holder}"

    def _lease(self, holder: str, socket_id: str, mode: str) -> bool:
        args: list[str | int] = [socket_id, self.settings.ws_max_connections_per_key, int(self.lease_s * 1000), mode]
        try:
            return bool(self._lease_script(keys=[self._name(holder)], args=args))
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc

    def open(self, holder: str, socket_id: str) -> bool:
        """Takes a place for the socket; False when the key already holds as many as the cap allows."""
        return self._lease(holder, socket_id, "open")

    def renew(self, holder: str, socket_id: str) -> bool:
        """Extends the socket's lease; False when it no longer holds one (it ran out: the socket must take a
        place again, under the cap)."""
        return self._lease(holder, socket_id, "renew")

    def close(self, holder: str, socket_id: str) -> None:
        with suppress(redis.exceptions.RedisError):  # else the lease ends by itself
            self._redis.zrem(self._name(holder), socket_id)


class SocketContext(ApiContext):
    """The context strawberry keeps for a whole socket: no caller of its own, only what admits operations."""

    def __init__(
        self, services: ApiServices, gate: Gate, policy: SocketPolicy, presented_key: str | None, address: str | None
    ) -> None:
        super().__init__(services, None)
        self.address = address  # the client's, for throttling failed authentications
        self.gate = gate
        self.policy = policy
        self.presented_key = presented_key  # from the handshake's headers; `connection_init` may carry one instead


def _key_in(params: dict[str, Any]) -> str | None:
    key = params.get("apiKey") or str(params.get("authorization") or "").removeprefix("Bearer ").strip()
    return str(key) if key else None


class GuardedTransportWS(BaseGraphQLTransportWSHandler[ApiContext, None]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._connection: ApiContext | None = None
        super().__init__(*args, **kwargs)
        self._key: str | None = None
        self._holder: str | None = None  # the key id counted against the per-key socket cap
        self._socket_id = uuid.uuid4().hex  # this socket's place in that count
        self._recheck: asyncio.Task[None] | None = None

    @property
    def context(self) -> ApiContext:
        """Inside an operation's task, that operation's context; elsewhere the socket's."""
        current = _operation_context.get()
        if current is not None:
            return current
        assert self._connection is not None
        return self._connection

    @context.setter
    def context(self, value: ApiContext) -> None:
        self._connection = value

    @property
    def _socket(self) -> SocketContext:
        assert isinstance(self._connection, SocketContext)
        return self._connection

    async def _close(self, code: int, reason: str) -> None:
        if self.connection_init_timeout_task:
            self.connection_init_timeout_task.cancel()
        await self.websocket.close(code=code, reason=reason[:120])  # a close reason holds 123 bytes

    async def _close_over_cap(self) -> None:
        limit = self._socket.policy.settings.ws_max_connections_per_key
        await self._close(4429, f"too many connections for this API key (max {limit}); close one first")

    async def _refuse_operation(self, op_id: str, message: str, code: str, **extensions: Any) -> None:
        count_error(code)
        error = GraphQLError(message, extensions={"code": code, **extensions})
        await self.send_message({"id": op_id, "type": "error", "payload": [error.formatted]})

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        payload = message.get("payload") or {}
        if self.connection_init_received or self.connection_timed_out or not isinstance(payload, dict):
            await super().handle_connection_init(message)  # the protocol's own answers (4429, 4400)
            return
        key = _key_in(payload) or self._socket.presented_key
        if key is None:
            await self._close(4401, "Unauthorized: send an API key in connection_init {'apiKey': 'egk_...'}")
            return
        try:
            caller: Caller | None = await asyncio.to_thread(self._socket.gate.caller, key, self._socket.address)
        except InvalidApiKey as exc:
            await self._close(4403, f"Forbidden: {exc}")
            return
        except RateLimited as exc:
            await self._close(4429, str(exc))
            return
        except LimiterUnavailable as exc:
            await self._close(1013, str(exc))  # try again later
            return
        assert caller is not None
        holder = caller.key_id or "admin"
        try:
            admitted = await asyncio.to_thread(self._socket.policy.open, holder, self._socket_id)
        except LimiterUnavailable as exc:
            count_error("SERVICE_UNAVAILABLE")
            await self._close(1013, str(exc))
            return
        if not admitted:
            await self._close_over_cap()
            return
        self._key, self._holder = key, holder
        await super().handle_connection_init(message)
        self._recheck = asyncio.create_task(self._recheck_key())

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if not self.connection_acknowledged or message["id"] in self.operations:
            await super().handle_subscribe(message)  # the protocol's own answers (4401, 4409)
            return
        limit = self._socket.policy.settings.ws_max_operations_in_flight
        if len(self.operations) >= limit:
            text = f"{len(self.operations)} operations in flight on this connection (max {limit}); complete one first"
            await self._refuse_operation(message["id"], text, "TOO_MANY_OPERATIONS")
            return
        try:
            caller = await asyncio.to_thread(self._socket.gate.admit, self._key, self._socket.address)
        except InvalidApiKey as exc:
            await self._close(4403, f"Forbidden: {exc}")
            return
        except RateLimited as exc:
            await self._refuse_operation(message["id"], str(exc), "RATE_LIMITED", retryAfter=exc.retry_after_s)
            return
        except LimiterUnavailable as exc:
            await self._refuse_operation(message["id"], str(exc), "SERVICE_UNAVAILABLE", retryAfter=exc.retry_after_s)
            return
        token = _operation_context.set(ApiContext(self._socket.services, caller))
        try:
            await super().handle_subscribe(message)
        finally:
            _operation_context.reset(token)

    async def _recheck_key(self) -> None:
        """Closes the socket once its key stops being valid (ends running subscriptions too), and keeps its place
        under the key's socket cap: renewed whatever the key check says, taken again under the cap if it ran out."""
        interval = self._socket.policy.settings.ws_reauth_interval_s
        while True:
            await asyncio.sleep(interval)
            try:
                await asyncio.to_thread(self._socket.gate.caller, self._key, self._socket.address)
            except InvalidApiKey as exc:
                await self._close(4403, f"Forbidden: {exc}")
                return
            except (RateLimited, LimiterUnavailable):
                pass  # the key was valid when last looked at; look again next time
            if not await self._keep_place():
                await self._close_over_cap()
                return

    async def _keep_place(self) -> bool:
        """Whether the socket still holds a place under its key's cap (True when Redis cannot say: its lease
        stands until Redis answers again)."""
        if self._holder is None:
            return True
        policy = self._socket.policy
        try:
            return await asyncio.to_thread(policy.renew, self._holder, self._socket_id) or await asyncio.to_thread(
                policy.open, self._holder, self._socket_id
            )
        except LimiterUnavailable:
            return True

    async def shutdown(self) -> None:
        if self._recheck is not None and self._recheck is not asyncio.current_task():
            self._recheck.cancel()
            with suppress(asyncio.CancelledError):
                await self._recheck
        if self._holder is not None:
            await asyncio.to_thread(self._socket.policy.close, self._holder, self._socket_id)
            self._holder = None
        await super().shutdown()


# The page a browser gets at /graphql in development mode: self-contained (strawberry's GraphiQL page loads its scripts
# from a CDN and stays on "Loading..." with no network).
GRAPHQL_PAGE = Path(__file__).with_name("static") / "graphql_page.html"


class EngramGraphQLRouter(GraphQLRouter[ApiContext, None]):
    """The GraphQL router whose sockets speak only graphql-transport-ws, through GuardedTransportWS."""

    graphql_transport_ws_handler_class = GuardedTransportWS

    @property
    def graphql_ide_html(self) -> str:
        return GRAPHQL_PAGE.read_text(encoding="utf-8")

    def __init__(self, schema: BaseSchema, *, settings: ApiSettings, **kwargs: Any) -> None:
        super().__init__(
            schema,
            # The older graphql-ws protocol would bypass the guard: not offered.
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
            connection_init_wait_timeout=timedelta(seconds=settings.ws_init_timeout_s),
            max_subscriptions_per_connection=settings.ws_max_operations_in_flight,
            **kwargs,
        )
