"""The generated Python client reads recall's aggregate block from the running API: the count of runs and the sum
spent with its unit, typed (docs/aggregation.md)."""

from __future__ import annotations

from datetime import datetime

import neo4j

from engram.settings import EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.e2e.api.test_aggregate import ANA, NOW
from tests.e2e.clients.test_python_client import _wait, client_for


def test_the_client_reads_the_count_and_the_sum(settings: EngramSettings, driver: neo4j.Driver, space: str) -> None:
    url = f"http://{settings.api.host}:{settings.api.port}/graphql"
    with client_for(url, issue_key(driver, space)) as client:
        job = client.ingest(records=[ANA]).ingest
        assert job.typename__ == "Job", job
        _wait(client, job.id)
        asked = {"user": "ana", "asker": "Ana", "now": datetime.fromisoformat(NOW)}
        runs = client.recall(query="How many times did I go running?", **asked).recall
        assert runs.typename__ == "Recall" and runs.aggregate is not None
        assert runs.aggregate.count == 3 and sorted(i.quantity for i in runs.aggregate.items) == [5.0, 8.0, 10.0]
        spent = client.recall(query="How much did I spend in total?", **asked).recall
        assert spent.typename__ == "Recall" and spent.aggregate is not None
        assert (spent.aggregate.sum, spent.aggregate.unit) == (65.0, "USD")
        assert (spent.aggregate.value, spent.aggregate.value_from) == (65.0, "sum")  # the figure answering it
