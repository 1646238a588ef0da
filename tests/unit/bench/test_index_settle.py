from collections.abc import Callable

from bench.index_settle import wait_until_settled


class FakeClock:
    """Time that passes only when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def probes(*values: float) -> Callable[[], float]:
    remaining = list(values)
    return lambda: remaining.pop(0)


def test_settles_once_two_rounds_agree() -> None:
    clock = FakeClock()
    result = wait_until_settled(probes(50.0, 30.0, 14.0, 13.0, 99.0), interval_s=60, sleep=clock.sleep, clock=clock)
    assert result.settled
    assert result.probe_p95_ms == [50.0, 30.0, 14.0, 13.0]
    assert result.waited_s == 180.0


def test_a_slower_noisy_round_ends_the_wait() -> None:
    clock = FakeClock()
    result = wait_until_settled(probes(66.5, 6.5, 10.2, 1.0), interval_s=60, sleep=clock.sleep, clock=clock)
    assert result.settled
    assert result.probe_p95_ms == [66.5, 6.5, 10.2]


def test_gives_up_at_the_limit_and_says_so() -> None:
    clock = FakeClock()
    falling = probes(*[100.0 / 2**n for n in range(20)])
    result = wait_until_settled(falling, interval_s=60, max_wait_s=300, sleep=clock.sleep, clock=clock)
    assert not result.settled
    assert len(result.probe_p95_ms) == 6  # the first round, then one per minute for five minutes
    assert result.waited_s == 300.0
