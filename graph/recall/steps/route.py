"""Route: the memory kinds to search (the request's, or the router's reading of the query) and the query's vector."""

from __future__ import annotations

from graph.params import vector_param
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class Route(Step[None]):
    name = "route"

    def apply(self, run: RecallRun, found: None) -> None:
        run.types = run.request.memory_types or run.tools.router.route(run.request.query)
        run.trace.add("route", memory_types=[t.value for t in run.types])
        run.vector = vector_param(run.tools.embed([run.request.query])[0])
