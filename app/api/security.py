"""Who is calling: the API key names the space (never a request argument) and the key's role; each key has a rate
limit, the admin key its own, and failed authentications are throttled per client address and per presented key."""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

import redis

from engram.settings import ApiSettings
from graph.api_keys import ApiKeyStore, InvalidApiKey, KeyRole


@dataclass(frozen=True)
class Caller:
    """An authenticated caller: a key of one space (with its role), or the administrator."""

    space: str | None
    key_id: str | None
    admin: bool = False
    role: KeyRole | None = None  # None for the administrator


class LimiterUnavailable(Exception):
    """Redis, which counts requests, refuses writes (full under `noeviction`, or down): a 503, not a 500."""

    retry_after_s = 5

    def __init__(self, cause: Exception) -> None:
        super().__init__(
            f"the request counter (Redis) refuses writes ({type(cause).__name__}): the service is out of queue "
            f"memory or its Redis is down; retry in {self.retry_after_s} s"
        )


class RateLimited(Exception):
    def __init__(self, retry_after_s: int, what: str = "rate limit exceeded") -> None:
        super().__init__(f"{what}; retry in {retry_after_s} s")
        self.retry_after_s = retry_after_s


class ConflictingKeys(InvalidApiKey):
    """Two different keys in one request: which one speaks for it is not the server's guess to make."""


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The key from `Authorization: Bearer <key>` or `X-API-Key: <key>` (None when neither is sent); both sent and
    different: ConflictingKeys (a revoked key must not ride along with a good one)."""
    authorization = headers.get("authorization", "")
    bearer = authorization[7:].strip() if authorization.lower().startswith("bearer ") else None
    header = (headers.get("x-api-key") or "").strip() or None
    if bearer and header and bearer != header:
        raise ConflictingKeys("two different keys (Authorization and X-API-Key)")
    return bearer or header


def client_address(scope: Mapping[str, object]) -> str | None:
    """The client's address as the server saw it (behind a proxy, the proxy's unless the server is told to trust
    its forwarded-for header, as uvicorn's --proxy-headers does)."""
    client = scope.get("client")
    return str(client[0]) if isinstance(client, tuple | list) and client else None


def authenticate(key: str | None, keys: ApiKeyStore, admin_key: str) -> Caller | None:
    """None without a key; raises InvalidApiKey for a wrong, revoked or malformed one."""
    if key is None:
        return None
    if admin_key and hmac.compare_digest(key.encode(), admin_key.encode()):
        return Caller(space=None, key_id=None, admin=True)
    holder = keys.holder_of(key)
    return Caller(space=holder.space, key_id=holder.key_id, role=holder.role)


class RateLimiter:
    """A sliding window per name in Redis (shared by every API process): at most `limit` events in any `window_s`
    seconds, counted as this window's events plus the previous window's, weighted by how much of it still lies
    within `window_s` of now. Fixed windows let a caller send twice the limit across a window's boundary."""

    def __init__(self, client: redis.Redis, limit: int, window_s: int = 60, prefix: str = "engram:rate") -> None:
        self._redis = client
        self._limit = limit
        self._window_s = window_s
        self._prefix = prefix

    def _names(self, name: str, now: float) -> tuple[str, str, float]:
        """This window's counter, the previous window's, and the share of the previous one still in the window."""
        index = int(now // self._window_s)
        elapsed = now / self._window_s - index
        return f"{self._prefix}:{name}:{index}", f"{self._prefix}:{name}:{index - 1}", 1.0 - elapsed

    def _retry_after(self, current: int, previous: int, weight: float, events: int = 1) -> int:
        """Seconds until `events` more fit, if nothing else is sent: within this window, as the previous one's share
        shrinks, or in the next, as this one's does (at most two windows: more events than the limit never fit)."""
        room = self._limit - events
        if current <= room and previous > 0:
            wait = (weight - (room - current) / previous) * self._window_s
        else:
            wait = (weight + min(1.0, 1.0 - max(room, 0) / max(current, 1))) * self._window_s
        return max(1, math.ceil(wait))

    def _counted(self, name: str, events: int) -> tuple[str, int, int, float]:
        """Counts `events` for `name`; returns this window's counter and count with them, the previous window's
        count and its weight."""
        counter, previous, weight = self._names(name, time.time())
        pipe = self._redis.pipeline()
        pipe.incrby(counter, events)
        pipe.expire(counter, 2 * self._window_s)
        pipe.get(previous)
        try:
            current, _, before = pipe.execute()
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        return counter, int(current), int(before or 0), weight

    def count(self, name: str, events: int = 1) -> float:
        """Counts `events` for `name`; returns the events within the sliding window."""
        _, current, previous, weight = self._counted(name, events)
        return current + previous * weight

    def held_off(self, name: str) -> int | None:
        """Seconds until `name` may send again, None when it may now (counts nothing)."""
        if self._limit <= 0:
            return None
        counter, previous, weight = self._names(name, time.time())
        try:
            current, before = self._redis.mget([counter, previous])
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        held, held_before = int(current or 0), int(before or 0)
        if held + held_before * weight < self._limit:
            return None
        return self._retry_after(held, held_before, weight)

    def check(self, name: str, what: str = "rate limit exceeded", events: int = 1) -> None:
        """Counts `events` for `name`; past the limit, takes them back (a refused request uses none of the limit)
        and raises RateLimited with the seconds until they would fit."""
        if self._limit <= 0:
            return
        counter, current, previous, weight = self._counted(name, events)
        if current + previous * weight <= self._limit:
            return
        try:
            self._redis.decrby(counter, events)
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        raise RateLimited(self._retry_after(current - events, previous, weight, events), what)


def _fingerprint(key: str) -> str:
    """A presented key as a counter's name: never the key itself in Redis."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:32]


class AuthThrottle:
    """Failed authentications in a sliding minute, per client address and per presented key. Past the burst, every
    attempt from that address or with that key is refused (429) before the key is looked at, the right key included:
    a guesser learns nothing until the failures age out, and a wrong key retried from many addresses stops too."""

    def __init__(self, client: redis.Redis, per_minute: int) -> None:
        self._failures = RateLimiter(client, per_minute, 60, "engram:authfail")

    def _names(self, address: str | None, key: str) -> list[str]:
        return [f"key:{_fingerprint(key)}", *([f"addr:{address}"] if address else [])]

    def check(self, address: str | None, key: str) -> None:
        waits = [wait for name in self._names(address, key) if (wait := self._failures.held_off(name)) is not None]
        if waits:
            raise RateLimited(max(waits), "too many failed authentications")

    def failed(self, address: str | None, key: str) -> None:
        for name in self._names(address, key):
            self._failures.count(name)


class Gate:
    """Admits a request: the caller its key names, counted against the key's rate limit (the admin key's own).
    HTTP requests, each operation on a WebSocket and MCP requests pass the same gate, so a revoked key stops
    working everywhere at once and failed keys are throttled on every door."""

    def __init__(self, keys: ApiKeyStore, settings: ApiSettings, client: redis.Redis) -> None:
        self._keys = keys
        self._admin_key = settings.admin_key.get_secret_value()
        self._limiter = RateLimiter(client, settings.rate_limit_per_minute)
        self._admin_limiter = RateLimiter(client, settings.admin_rate_limit_per_minute, prefix="engram:rate-admin")
        self._throttle = AuthThrottle(client, settings.auth_failures_per_minute)

    def caller(self, key: str | None, address: str | None = None) -> Caller | None:
        """The caller, without counting a request (raises InvalidApiKey, or RateLimited for a throttled address
        or key)."""
        if key is None:
            return None
        self._throttle.check(address, key)
        try:
            return authenticate(key, self._keys, self._admin_key)
        except InvalidApiKey:
            self._throttle.failed(address, key)
            raise

    def admit(self, key: str | None, address: str | None = None) -> Caller | None:
        """The caller, counted against its key's rate limit (raises InvalidApiKey or RateLimited)."""
        caller = self.caller(key, address)
        if caller is not None and caller.key_id is not None:
            self._limiter.check(caller.key_id)
        elif caller is not None and caller.admin:
            self._admin_limiter.check("admin", "the admin key's rate limit exceeded")
        return caller


__all__ = [
    "AuthThrottle",
    "Caller",
    "Gate",
    "InvalidApiKey",
    "LimiterUnavailable",
    "RateLimited",
    "RateLimiter",
    "authenticate",
    "client_address",
    "presented_key",
]
