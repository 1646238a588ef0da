"""Who is calling: the API key names the space (never a request argument) and the key's role; each key has a rate
limit, its space a ceiling across all its keys, the admin key its own, and failed authentications are throttled per
client address and per presented key."""

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


# A sliding log in one-second buckets per name (a hash: second -> events), shared by every API process. An event is
# admitted only while the events of the last `window_s` + 1 buckets (the current second's included) and it stay within
# every limit: so no `window_s`-long span, wherever it starts, ever holds more than the limit. A refused request counts
# nothing. KEYS: the names' hashes; ARGV[1]: now (s, float), ARGV[2]: window_s, ARGV[3]: events, ARGV[4]: 1 to count
# (0: only look), then one limit per key (<= 0: none). Returns {1, '0', 0} when admitted (or looked at and room),
# else {0, seconds until `events` fit every limit ('-1': never, more than a limit), the 1-based index of the name that
# waits longest}.
_SLIDING_LOG = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local events = tonumber(ARGV[3])
local second = math.floor(now)
local oldest = second - window
local wait = 0
local worst = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[4 + i])
  local buckets = {}
  local held = 0
  local stored = redis.call('HGETALL', key)
  for j = 1, #stored, 2 do
    local at = tonumber(stored[j])
    if at < oldest then
      redis.call('HDEL', key, stored[j])
    else
      local n = tonumber(stored[j + 1])
      held = held + n
      table.insert(buckets, {at, n})
    end
  end
  if limit > 0 and held + events > limit then
    table.sort(buckets, function(a, b) return a[1] < b[1] end)
    local left = held
    local free_at = second + window + 1
    for _, bucket in ipairs(buckets) do
      left = left - bucket[2]
      if left + events <= limit then free_at = bucket[1] + window + 1 break end
    end
    if events > limit then free_at = math.huge end
    if free_at - now > wait then wait, worst = free_at - now, i end
  end
end
if worst > 0 then
  if wait == math.huge then return {0, '-1', worst} end
  return {0, tostring(wait), worst}
end
if ARGV[4] == '1' then
  for _, key in ipairs(KEYS) do
    redis.call('HINCRBY', key, second, events)
    redis.call('EXPIRE', key, window + 2)
  end
end
return {1, '0', 0}
"""


DEFAULT_RATE_PREFIX = "engram:rate"


class RateLimiter:
    """At most `limit` events in any `window_s` seconds per name, exactly, in Redis (shared by every API process):
    a sliding log of one-second buckets (`_SLIDING_LOG`). Its only slack is on the safe side: an event waits until
    the whole second it would push over the limit has left the window, so a caller may find up to a second less room
    than `limit` per `window_s`, never more. A name may be checked together with others (`also`: a space's ceiling
    across its keys), admitted only when it fits all of them."""

    def __init__(self, client: redis.Redis, limit: int, window_s: int = 60, prefix: str = DEFAULT_RATE_PREFIX) -> None:
        self._redis = client
        self._limit = limit
        self._window_s = window_s
        self._prefix = prefix
        self._script = client.register_script(_SLIDING_LOG)

    def _run(self, names: list[tuple[str, int]], events: int, count: bool) -> tuple[float, int]:
        """Runs the log over (name, limit) pairs; returns (0, -1) when admitted, else the seconds until they fit (-1:
        never: more events than a limit) and the index of the name that waits longest."""
        keys = [f"{self._prefix}:{name}" for name, _ in names]
        args: list[str | int | float] = [
            time.time(),
            self._window_s,
            events,
            int(count),
            *(limit for _, limit in names),
        ]
        try:
            admitted, wait, worst = self._script(keys=keys, args=args)
        except redis.exceptions.RedisError as exc:
            raise LimiterUnavailable(exc) from exc
        return (0.0, -1) if int(admitted) else (float(wait), int(worst) - 1)

    def count(self, name: str, events: int = 1) -> None:
        """Counts `events` for `name`, whatever the limit."""
        self._run([(name, 0)], events, True)

    def held_off(self, name: str) -> int | None:
        """Seconds until `name` may send again, None when it may now (counts nothing)."""
        if self._limit <= 0:
            return None
        wait, _ = self._run([(name, self._limit)], 1, False)
        return None if wait == 0 else max(1, math.ceil(wait))

    def check(
        self,
        name: str,
        what: str = "rate limit exceeded",
        events: int = 1,
        also: tuple[str, int, str] | None = None,
    ) -> None:
        """Counts `events` for `name` and, with `also` (name, limit, what), for a second name against its own limit
        (a space's ceiling across its keys); past either limit, counts nothing and raises RateLimited with the seconds
        until they would fit, saying which limit."""
        checked = [(name, self._limit, what)] if self._limit > 0 else []
        if also is not None and also[1] > 0:
            checked.append(also)
        if not checked:
            return
        wait, worst = self._run([(n, limit) for n, limit, _ in checked], events, True)
        if worst < 0:
            return
        if wait < 0:
            raise RateLimited(self._window_s, f"{checked[worst][2]}: {events} events never fit its limit")
        raise RateLimited(max(1, math.ceil(wait)), checked[worst][2])


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


def space_counter(space: str | None) -> str:
    """The name a space's ceiling across its keys is counted under (in RateLimiter's default prefix)."""
    return f"space:{space}"


def space_counter_key(space: str) -> str:
    """The Redis key of that count: it goes when the space is deleted (workers/scope_deletion.py)."""
    return f"{DEFAULT_RATE_PREFIX}:{space_counter(space)}"


class Gate:
    """Admits a request: the caller its key names, counted against the key's rate limit (the admin key's own).
    HTTP requests, each operation on a WebSocket and MCP requests pass the same gate, so a revoked key stops
    working everywhere at once and failed keys are throttled on every door."""

    def __init__(self, keys: ApiKeyStore, settings: ApiSettings, client: redis.Redis) -> None:
        self._keys = keys
        self._admin_key = settings.admin_key.get_secret_value()
        self._limiter = RateLimiter(client, settings.rate_limit_per_minute)
        self._space_limit = settings.space_rate_limit_per_minute
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
            space_limit = (
                f"space:{caller.space}",
                self._space_limit,
                "the space's rate limit across its keys exceeded",
            )
            self._limiter.check(caller.key_id, also=space_limit)
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
