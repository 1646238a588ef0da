"""The soak's load gate: a pause runs with every party parked between operations, and the load gets its time back."""

from __future__ import annotations

import asyncio
import time

from bench.soak_gate import LoadGate


async def _party(gate: LoadGate, log: list[str], name: str) -> None:
    async with gate.party():
        while gate.running():
            await gate.checkpoint()
            log.append(f"{name} start")
            await asyncio.sleep(0.02)  # an operation in flight when the pause begins is finished, not cut
            log.append(f"{name} end")


def test_a_pause_runs_with_every_party_parked_and_moves_the_end_on() -> None:
    async def scenario() -> tuple[list[str], list[str], float, float]:
        gate = LoadGate(time.monotonic() + 0.3)
        log: list[str] = []
        seen_in_pause: list[str] = []
        planned_end = gate.until

        async def pause() -> None:
            await asyncio.sleep(0.05)
            async with gate.paused():
                before = len(log)
                left = gate.left_s()
                await asyncio.sleep(0.1)
                assert abs(gate.left_s() - left) < 0.05  # the load's clock stands still while paused
                seen_in_pause.extend(log[before:])  # nothing ran while paused
                seen_in_pause.append("in flight" if log[-1].endswith("start") else "")

        await asyncio.gather(pause(), _party(gate, log, "a"), _party(gate, log, "b"))
        return log, seen_in_pause, planned_end, gate.until

    log, seen_in_pause, planned_end, until = asyncio.run(scenario())
    assert seen_in_pause == [""]  # no operation started or was left half-done during the pause
    assert until - planned_end >= 0.1  # the load lasts its time, pauses excluded
    assert log.count("a start") == log.count("a end") > 2


def test_a_party_that_left_does_not_hold_up_a_pause() -> None:
    async def scenario() -> bool:
        gate = LoadGate(time.monotonic() + 10)
        async with gate.party():
            pass  # this party's loop is over
        entered = False
        async with asyncio.timeout(1):
            async with gate.paused():
                entered = True
        return entered

    assert asyncio.run(scenario())
