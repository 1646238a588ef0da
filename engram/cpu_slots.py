"""Which cores no Engram process is embedding on right now, across processes: one lock file per core.

A worker pool process keeps its share of the cores (cores / concurrency) for its forward passes whatever happens;
with these slots a large pass also takes the cores no other pass holds, so a lone job embeds on the whole machine
and two jobs side by side each keep their share. Slots are taken per forward pass (a fraction of a second) without
waiting, and an flock goes with its process, so a killed worker holds nothing.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


def default_folder() -> Path:
    """Machine-wide (every stack on this machine shares its cores), per user."""
    return Path(tempfile.gettempdir()) / f"engram-cores-{os.getuid()}"


class CoreSlots:
    def __init__(self, cores: int, folder: Path | None = None) -> None:
        self._cores = cores
        self._folder = folder or default_folder()

    @contextmanager
    def take(self, most: int) -> Iterator[int]:
        """Holds up to `most` free slots for the block; yields how many (0 when every core is taken)."""
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
