"""Which cores no Engram process is embedding on right now, across processes: one lock file per core.

A worker pool process keeps its share of the cores (cores / concurrency) for its forward passes whatever happens;
with these slots a large pass also takes the cores that no other pass holds and nothing else runs on at that
instant, so a lone job on a quiet machine embeds on the whole machine and two jobs side by side each keep their
share. Slots are taken per forward pass (a fraction of a second) without waiting, and an flock goes with its
process, so a killed worker holds nothing.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


def idle_cores(cores: int) -> int:
    """Cores no other runnable task wants right now (the kernel's count of runnable tasks, this one left out). On a
    machine busy with anything else (tests, Neo4j, another service) a second thread only waits for a core: on the
    shared development machine a contended pass ran slower on 2 threads than on 1 (docs/embedding.md)."""
    try:
        runnable = int(Path("/proc/loadavg").read_text().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cores
    return max(0, cores - max(0, runnable - 1))


def default_folder() -> Path:
    """Machine-wide (every stack on this machine shares its cores), per user."""
    return Path(tempfile.gettempdir()) / f"engram-cores-{os.getuid()}"


class CoreSlots:
    def __init__(self, cores: int, folder: Path | None = None, idle: Callable[[int], int] = idle_cores) -> None:
        self._cores = cores
        self._folder = folder or default_folder()
        self._idle = idle

    @contextmanager
    def take(self, most: int) -> Iterator[int]:
        """Holds up to `most` free slots for the block, never more than the cores nothing else runs on at this
        instant; yields how many (0 when every core is taken)."""
        most = min(most, self._idle(self._cores))
        self._folder.mkdir(parents=True, exist_ok=True)
        with ExitStack() as held:
            count = 0
            for core in range(self._cores):
                if count >= most:
                    break
                handle = held.enter_context((self._folder / f"{core}.lock").open("a"))
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                held.callback(fcntl.flock, handle, fcntl.LOCK_UN)
                count += 1
            yield count
