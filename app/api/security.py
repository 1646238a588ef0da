"""Who is calling: the API key names the space (never a request argument), and each key has a rate limit."""

from __future__ import annotations

import hmac
import time
from collections.abc import Mapping
from dataclasses import dataclass

import redis

from graph.api_keys import ApiKeyStore, InvalidApiKey


@dataclass(frozen=True)
class Caller:
    """An authenticated caller: a key of one space, or the administrator."""

    space: str | None
    key_id: str | None
    admin: bool = False


class LimiterUnavailable(Exception):
    """Redis, which counts requests, refuses writes (full under `noeviction`, or down): a 503, not a 500."""

    retry_after_s = 5

    def __init__(self, cause: Exception) -> None:
        super().__init__(
            f"the request counter (Redis) refuses writes ({type(cause).__name__}): the service is out of queue "
            f"memory or its Redis is down; retry in {self.retry_after_s} s"
        )


class RateLimited(Exception):
    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"rate limit exceeded; retry in {retry_after_s} s")
        self.retry_after_s = retry_after_s


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The key from `Authorization: Bearer <key>` or `X-API-Key: <key>` (None when neither is sent)."""
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return headers.get("x-api-key") or None


def authenticate(key: str | None, keys: ApiKeyStore, admin_key: str) -> Caller | None:
    """None without a key; raises InvalidApiKey for a wrong, revoked or malformed one."""
    if key is None:
        return None
    if admin_key and hmac.compare_digest(key.encode(), admin_key.encode()):
        return Caller(space=None, key_id=None, admin=True)
    space, key_id = keys.space_of(key)
    return Caller(space=space, key_id=key_id)


class RateLimiter:
    """A fixed one-minute window per key in Redis (shared by every API process)."""

    def __init__(self, client: redis.Redis, per_minute: int) -> None:
        self._redis = client
        self._per_minute = per_minute

    def check(self, key_id: str) -> None:
        if self._per_minute <= 0:
            return
        window = int(time.time() // 60)
        name = f"engram:rate:{key_id}:{window}"
        pipe = self._redis.pipeline()
        pipe.incr(name)
        pipe.expire(name, 120)
        try:
            count = int(pipe.execute()[0])
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        if count > self._per_minute:
            raise RateLimited(60 - int(time.time()) % 60)


class Gate:
    """Admits a request: the caller its key names, counted against the key's rate limit. HTTP requests and each
    operation on a WebSocket pass the same gate, so a revoked key stops working everywhere at once."""

    def __init__(self, keys: ApiKeyStore, admin_key: str, limiter: RateLimiter) -> None:
        self._keys = keys
        self._admin_key = admin_key
        self._limiter = limiter

    def caller(self, key: str | None) -> Caller | None:
        """The caller, without counting a request (raises InvalidApiKey)."""
        return authenticate(key, self._keys, self._admin_key)

    def admit(self, key: str | None) -> Caller | None:
        """The caller, counted against its key's rate limit (raises InvalidApiKey or RateLimited)."""
        caller = self.caller(key)
        if caller is not None and caller.key_id is not None:
            self._limiter.check(caller.key_id)
        return caller


__all__ = [
    "Caller",
    "Gate",
    "InvalidApiKey",
    "LimiterUnavailable",
    "RateLimited",
    "RateLimiter",
    "authenticate",
    "presented_key",
]
