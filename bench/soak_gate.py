"""The soak's load gate: lets the tenants run until the load's time is up, or parks them all for a pause.

A pause is how the soak measures idle recalls on the graph as the load has left it so far: every tenant (and the
hostile one) waits before its next operation, the jobs in flight finish, and recalls run one at a time with nothing
else going on. The time spent paused is added to the load's end, so the load still lasts its minutes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class LoadGate:
    def __init__(self, until: float) -> None:
        self.until = until  # time.monotonic() at which the load ends (moved on by each pause)
        self._open = asyncio.Event()
        self._open.set()
        self._active = 0  # parties inside their loop
        self._parked = 0
        self._all_parked = asyncio.Event()
        self._pause_started: float | None = None

    def running(self) -> bool:
        return time.monotonic() < self.until

    def left_s(self) -> float:
        """Seconds of load left, a pause in progress not counted (it is added to the end when it ends)."""
        paused = time.monotonic() - self._pause_started if self._pause_started is not None else 0.0
        return self.until + paused - time.monotonic()

    @asynccontextmanager
    async def party(self) -> AsyncIterator[None]:
        """A party's whole loop: a pause waits only for the parties still inside theirs."""
        self._active += 1
        try:
            yield
        finally:
            self._active -= 1
            self._check_parked()

    async def checkpoint(self) -> None:
        """Called by a party between operations: returns at once unless a pause is on, then when it ends."""
        if self._open.is_set():
            return
        self._parked += 1
        self._check_parked()
        await self._open.wait()
        self._parked -= 1

    @asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        """Parks every party (each after the operation it is in), runs the block, then lets them go on."""
        started = self._pause_started = time.monotonic()
        self._all_parked.clear()
        self._open.clear()
        self._check_parked()
        try:
            await self._all_parked.wait()
            yield
        finally:
            self.until += time.monotonic() - started
            self._pause_started = None
            self._open.set()

    def _check_parked(self) -> None:
        if not self._open.is_set() and self._parked >= self._active:
            self._all_parked.set()
