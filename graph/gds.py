"""The Graph Data Science client over the process's own driver, working with OpenGDS.

`GraphDataScience(...)` probes `CALL gds.debug.arrow()` to find an Arrow Flight server. OpenGDS (the
Community build we assemble from Maven Central) has no such procedure, so the probe fails with
ProcedureNotFound. Instead of patching the library globally, the query runner below answers that one
probe with "Arrow disabled" when the server lacks it, and the client then uses Bolt for everything.
"""

from __future__ import annotations

from typing import Any

import neo4j
from graphdatascience import GraphDataScience
from graphdatascience.query_runner.neo4j_query_runner import Neo4jQueryRunner
from pandas import DataFrame

from graph.cypher import load

_ARROW_PROBE = "gds.debug.arrow"


class BoltOnlyQueryRunner(Neo4jQueryRunner):
    """A Neo4j query runner that reports Arrow as disabled where the server has no Arrow probe."""

    def call_procedure(self, endpoint: str, *args: Any, **kwargs: Any) -> DataFrame:
        if endpoint == _ARROW_PROBE and not self._has_arrow_probe():
            return DataFrame([{"listenAddress": "", "enabled": False, "running": False, "versions": []}])
        return super().call_procedure(endpoint, *args, **kwargs)

    def _has_arrow_probe(self) -> bool:
        records, _, _ = self._driver.execute_query(
            load("gds/procedure_exists"),
            name=_ARROW_PROBE,
            database_=self._database,
        )
        return bool(records[0]["n"])


def create_gds(driver: neo4j.Driver, database: str) -> GraphDataScience:
    """A GDS client sharing `driver` (the client does not close it)."""
    runner = BoltOnlyQueryRunner(driver, "bolt", database=database, auto_close=False, show_progress=False)
    return GraphDataScience(runner, arrow=False, show_progress=False)
