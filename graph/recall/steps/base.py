"""The one shape of a recall step, and how a group of steps runs side by side.

A step is `find(run) -> found` then `apply(run, found) -> None`:
- `find` only reads the run (and memory, through `run.searcher`): steps grouped in `Together` find at the same time;
- `apply` writes the run (candidates, ranking, trace), one step after another in the order the pipeline declares,
  so the result does not depend on which search answered first.
A step that needs no search does all its work in `apply`. A step whose read depends only on the request (and the
query's vector) may offer it as `early(run)`: `Ahead` starts it on the engine's search threads where the pipeline
declares, so it runs while the steps in between do their work, and the step's `find` takes its result with
`run.early_result` (or reads then, in a pipeline that did not start it). `runs(run)` says whether the step has
anything to do for this request and configuration (a step turned off by its knob, a time step without `now`); a
step that does not run leaves no trace.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, ClassVar, Generic, TypeVar

from graph.recall.run import RecallRun

Found = TypeVar("Found")


class Step(ABC, Generic[Found]):
    name: ClassVar[str]

    def runs(self, run: RecallRun) -> bool:
        return True

    def find(self, run: RecallRun) -> Found | None:
        return None

    def early(self, run: RecallRun) -> Callable[[], Any] | None:
        """The read this step's `find` will need, where it depends only on the request (None: none)."""
        return None

    @abstractmethod
    def apply(self, run: RecallRun, found: Found | None) -> None: ...

    def __call__(self, run: RecallRun) -> None:
        if self.runs(run):
            self.apply(run, self.find(run))


class Together:
    """Steps whose `find`s run side by side (the first on the caller's thread, the others on the engine's step
    threads), then whose `apply`s run in the order given. They must not need each other's results."""

    def __init__(self, *steps: Step[Any]) -> None:
        self.steps = steps
        self.name = " | ".join(step.name for step in steps)

    def __call__(self, run: RecallRun) -> None:
        active = [step for step in self.steps if step.runs(run)]
        if not active:
            return
        first, *others = active
        # Submitted before the first step's find starts, so they run while it does.
        pending: list[Future[Any]] = [run.threads.steps.submit(step.find, run) for step in others]
        found = [first.find(run), *(future.result() for future in pending)]
        for step, result in zip(active, found, strict=True):
            step.apply(run, result)


class Ahead:
    """Starts the `early` reads of later steps of the pipeline (those that run for this request), each on the
    engine's search threads, and goes on: a read that needs only the question (the relevance step's) then overlaps
    the ranking's own work instead of waiting after it. The results are the same; only when they are read changes."""

    def __init__(self, *steps: Step[Any]) -> None:
        self.steps = steps
        self.name = "ahead: " + ", ".join(step.name for step in steps)

    def __call__(self, run: RecallRun) -> None:
        for step in self.steps:
            if step.runs(run) and (read := step.early(run)) is not None:
                run.early[step.name] = run.threads.searches.submit(read)
