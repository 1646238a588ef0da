"""A Redis lock held for exactly as long as its holder works: a short expiry, extended by a heartbeat.

A lock with a fixed expiry is wrong either way: long, it outlives a crashed holder for hours; short, it expires
under a holder still at work (a consolidation waits up to 4 h for index builds), a second run enters, and the first
one's release raises LockNotOwnedError. Here the expiry is short (a crashed holder's lock frees within `ttl_s`) and
a thread extends it every third of `ttl_s` while the holder's block runs; leaving the block releases it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from redis.exceptions import LockNotOwnedError

log = logging.getLogger("engram.worker")


class HeldLock:
    def __init__(self, client: redis.Redis, name: str, ttl_s: float) -> None:
        # Not thread-local: the heartbeat thread extends the token the holder's thread acquired.
        self._lock = client.lock(name, timeout=ttl_s, thread_local=False)
        self.name = name
        self._beat_s = ttl_s / 3
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lost = False  # an extension found the lock expired or taken: another holder may have entered

    def acquire(self, wait_s: float = 0.0) -> bool:
        if not self._lock.acquire(blocking=wait_s > 0, blocking_timeout=wait_s or None):
            return False
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat {self.name}", daemon=True)
        self._thread.start()
        return True

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        try:
            self._lock.release()
        except LockNotOwnedError:
            self.lost = True
            log.error("lock %s expired under its holder (it missed heartbeats)", self.name)

    def _beat(self) -> None:
        while not self._stop.wait(self._beat_s):
            try:
                self._lock.reacquire()
            except LockNotOwnedError:
                self.lost = True
                log.error("lock %s was lost while its holder worked", self.name)
                return
            except redis.exceptions.ConnectionError:
                log.warning("lock %s: Redis unreachable, extension retried", self.name)


@contextmanager
def held_lock(client: redis.Redis, name: str, ttl_s: float, wait_s: float = 0.0) -> Iterator[bool]:
    """Yields whether the lock was taken (within `wait_s` seconds); holds it, extended, until the block ends."""
    lock = HeldLock(client, name, ttl_s)
    if not lock.acquire(wait_s):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()
