"""The threads a recall engine runs its side-by-side work on: owned by the engine and reused by every recall.

Starting threads per recall (about seven) cost time on a loaded machine (docs/tuning.md): each start waits for
the new thread to be scheduled. Two pools, so that nothing ever waits on a task queued behind itself: `searches`
runs single Neo4j round trips, which wait on nothing else; `steps` runs the `find`s of a `Together` group's steps
beside the first (graph/recall/steps/base.py), which wait only on `searches`.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor


class RecallThreads:
    def __init__(self, searches: int = 16, steps: int = 8) -> None:
        self.searches = ThreadPoolExecutor(searches, thread_name_prefix="engram-recall-search")
        self.steps = ThreadPoolExecutor(steps, thread_name_prefix="engram-recall-step")
        self.size = searches + steps  # the most threads they ever start

    def close(self) -> None:
        self.steps.shutdown(wait=True)
        self.searches.shutdown(wait=True)
