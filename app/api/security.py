"""Who is calling: the API key names the space (never a request argument) and the key's role; each key has a rate
limit, the admin key its own, and failed authentications are throttled per client address and per presented key."""

from __future__ import annotations

import hashlib
import hmac
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


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The key from `Authorization: Bearer <key>` or `X-API-Key: <key>` (None when neither is sent)."""
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return headers.get("x-api-key") or None


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
    """A fixed window per name in Redis (shared by every API process): `limit` events per `window_s` seconds."""

    def __init__(self, client: redis.Redis, limit: int, window_s: int = 60, prefix: str = "engram:rate") -> None:
        self._redis = client
        self._limit = limit
        self._window_s = window_s
        self._prefix = prefix

    def _name(self, name: str) -> str:
        return f"{self._prefix}:{name}:{int(time.time() // self._window_s)}"

    def retry_after(self) -> int:
        return self._window_s - int(time.time()) % self._window_s

    def count(self, name: str, events: int = 1) -> int:
        """Counts `events` for `name` and returns how many this window holds."""
        counter = self._name(name)
        pipe = self._redis.pipeline()
        pipe.incrby(counter, events)
        pipe.expire(counter, 2 * self._window_s)
        try:
            return int(pipe.execute()[0])
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc

    def over(self, name: str) -> bool:
        """Whether `name` has used up this window (counts nothing)."""
        if self._limit <= 0:
            return False
        try:
            held = self._redis.get(self._name(name))
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        return held is not None and int(held) >= self._limit

    def check(self, name: str, what: str = "rate limit exceeded", events: int = 1) -> None:
        """Counts `events` for `name`; raises RateLimited past the limit."""
        if self._limit > 0 and self.count(name, events) > self._limit:
            raise RateLimited(self.retry_after(), what)


def _fingerprint(key: str) -> str:
    """A presented key as a counter's name: never the key itself in Redis."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:32]


class AuthThrottle:
    """Failed authentications in a minute, per client address and per presented key. Past the burst, every attempt
    from that address or with that key is refused (429) before the key is looked at, the right key included: a
    guesser learns nothing until the minute ends, and a wrong key retried from many addresses stops too."""

    def __init__(self, client: redis.Redis, per_minute: int) -> None:
        self._failures = RateLimiter(client, per_minute, 60, "engram:authfail")

    def _names(self, address: str | None, key: str) -> list[str]:
        return [f"key:{_fingerprint(key)}", *([f"addr:{address}"] if address else [])]

    def check(self, address: str | None, key: str) -> None:
        if any(self._failures.over(name) for name in self._names(address, key)):
            raise RateLimited(self._failures.retry_after(), "too many failed authentications")

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
