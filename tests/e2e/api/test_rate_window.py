"""The rate limit is exact: no span of the window's length, wherever it starts, admits more than the limit (a
sliding log of one-second buckets), for a key and for its space across its keys."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import pytest
import redis

from app.api import security
from app.api.security import RateLimited, RateLimiter
from engram.settings import EngramSettings

WINDOW_S = 60
BOUNDARY = 29_000_000 * WINDOW_S  # a minute's start, far from any real key's windows


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock()
    monkeypatch.setattr(security, "time", frozen)
    return frozen


@pytest.fixture()
def limiter(settings: EngramSettings) -> Iterator[RateLimiter]:
    client = redis.Redis.from_url(settings.redis.url)
    prefix = f"engram:test-rate:{uuid.uuid4().hex}"
    yield RateLimiter(client, 10, WINDOW_S, prefix)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    client.close()


def _most_in_any_window(times: list[float], window_s: float) -> int:
    """The most admitted events any `window_s`-long span holds (spans starting at each event are the worst ones)."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= window_s:
            first += 1
        most = max(most, last - first + 1)
    return most


def test_no_window_ever_holds_more_than_the_limit(limiter: RateLimiter, clock: Clock) -> None:
    """A bounded burst test across minute boundaries: 3,000 attempts at random times over three minutes, in
    clusters around each boundary. Every 60 s span holds at most the limit of those admitted."""
    rng = random.Random(7)
    attempts = sorted(
        [BOUNDARY + rng.uniform(-90, 90) for _ in range(1_500)]
        + [BOUNDARY + WINDOW_S + rng.gauss(0, 2) for _ in range(1_500)]
    )
    admitted = []
    for at in attempts:
        clock.now = at
        try:
            limiter.check("caller")
            admitted.append(at)
        except RateLimited as refused:
            assert 1 <= refused.retry_after_s <= WINDOW_S + 1
    assert _most_in_any_window(admitted, WINDOW_S) <= 10
    assert len(admitted) >= 2 * 10  # and it is no stingier than a second's slack: a limit's worth per window


def test_a_burst_across_the_boundary_is_refused(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY - 1  # the last second of a minute
    for _ in range(10):
        limiter.check("caller")
    clock.now = BOUNDARY + 1  # two seconds later, a new minute: a fixed window would start from zero here
    with pytest.raises(RateLimited) as refused:
        limiter.check("caller")
    assert refused.value.retry_after_s == WINDOW_S - 1  # when the burst's second leaves the window
    for second in range(2, WINDOW_S - 1):  # one attempt a second until then: none fits
        clock.now = BOUNDARY + second
        with pytest.raises(RateLimited):
            limiter.check("caller")
    clock.now = BOUNDARY + WINDOW_S
    limiter.check("caller")


def test_events_age_out_of_the_window(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY + 30
    for _ in range(10):
        limiter.check("caller")
    with pytest.raises(RateLimited):
        limiter.check("caller")
    assert limiter.held_off("caller") is not None
    clock.now = BOUNDARY + 30 + 2 * WINDOW_S  # two quiet minutes later
    assert limiter.held_off("caller") is None
    limiter.check("caller")


def test_a_refused_request_counts_nothing(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY + 5
    for _ in range(10):
        limiter.check("caller")
    for _ in range(50):
        with pytest.raises(RateLimited):
            limiter.check("caller")
    clock.now = BOUNDARY + 5 + WINDOW_S + 1  # the ten have left the window: ten more fit, as if nothing was refused
    for _ in range(10):
        limiter.check("caller")


def test_a_space_has_a_ceiling_across_its_keys(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY + 3
    ceiling = ("space:acme", 15, "the space's rate limit across its keys exceeded")
    for _ in range(10):
        limiter.check("key-a", also=ceiling)
    for _ in range(5):
        limiter.check("key-b", also=ceiling)
    with pytest.raises(RateLimited) as refused:
        limiter.check("key-c", also=ceiling)  # a fresh key of the same space: the space is at its ceiling
    assert "space's rate limit" in str(refused.value)
    with pytest.raises(RateLimited) as refused:
        limiter.check("key-a", also=ceiling)
    assert "space's rate limit" not in str(refused.value)  # key-a's own limit waits longest: it says so
    limiter.check("key-x", also=("space:other", 15, "other"))  # another space is untouched
