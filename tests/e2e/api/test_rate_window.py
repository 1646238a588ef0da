"""The rate limit is a sliding window: a caller cannot send twice its limit by straddling a minute's boundary."""

from __future__ import annotations

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


def test_a_burst_across_the_boundary_is_refused(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY - 1  # the last second of a minute
    for _ in range(10):
        limiter.check("caller")
    clock.now = BOUNDARY + 1  # two seconds later, a new minute: a fixed window would start from zero here
    with pytest.raises(RateLimited) as refused:
        limiter.check("caller")
    # The previous minute's events weigh 59/60 now: one more fits once about a tenth of them aged out.
    assert 1 <= refused.value.retry_after_s <= 10
    admitted = 0
    for second in range(2, 21):  # one attempt a second for the next 20 seconds
        clock.now = BOUNDARY + second
        try:
            limiter.check("caller")
            admitted += 1
        except RateLimited:
            pass
    assert admitted <= 4  # not the 10 a fixed window would admit (10 x 40/60 still held at +20 s)


def test_events_age_out_of_the_window(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY + 30
    for _ in range(10):
        limiter.check("caller")
    with pytest.raises(RateLimited):
        limiter.check("caller")
    clock.now = BOUNDARY + 30 + 2 * WINDOW_S  # two quiet minutes later
    assert limiter.held_off("caller") is None
    limiter.check("caller")


def test_half_a_minute_on_half_the_previous_minutes_events_count(limiter: RateLimiter, clock: Clock) -> None:
    clock.now = BOUNDARY - 10
    for _ in range(8):
        limiter.check("caller")
    clock.now = BOUNDARY + WINDOW_S / 2  # half of the previous minute still in the window: 8 x 0.5 = 4 held
    for _ in range(6):
        limiter.check("caller")  # 4 + 6 = 10: admitted
    with pytest.raises(RateLimited):
        limiter.check("caller")
