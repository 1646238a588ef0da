"""Batched reads of one space's nodes by id, for the API's DataLoaders.

Every method takes many ids and issues one Cypher statement, so a nested GraphQL query costs a bounded
number of round trips whatever its width. Every statement is scoped by the reader's space: an id of
another space is simply not found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import neo4j

from graph.cypher import load
from graph.reads import read, timed

# Ids are `<kind>_<hash>` (engram/ids.py): the prefix says the label, so lookups can use the (space, id) index.
LABEL_OF_PREFIX = {
    "prop": "Proposition",
    "ep": "Episode",
    "con": "Concept",
    "src": "Source",
    "pre": "Prescription",
    "int": "Intent",
    "dim": "Dimension",
}

Row = dict[str, Any]


def label_of(node_id: str) -> str | None:
    return LABEL_OF_PREFIX.get(node_id.split("_", 1)[0])


def _native(properties: dict[str, Any]) -> Row:
    """Neo4j temporal values as Python datetimes; the embedding is never sent to clients."""
    return {
        key: value.to_native() if hasattr(value, "to_native") else value
        for key, value in properties.items()
        if key != "embedding"
    }


class GraphReader:
    """Reads of one space. `queries` counts the statements issued (the API reports it per request)."""

    def __init__(self, driver: neo4j.Driver, database: str, space: str, timeout_s: float | None = None) -> None:
        self._driver = driver
        self._database = database
        self.space = space
        self.queries = 0
        self._timeout_s = timeout_s  # each statement's transaction timeout (None: the server's default)

    def run(self, statement: str, **params: Any) -> list[neo4j.Record]:
        self.queries += 1
        return read(
            self._driver, self._database, statement, timed(load(statement), self._timeout_s), space=self.space, **params
        )

    def nodes(self, ids: Sequence[str]) -> dict[str, tuple[str, Row]]:
        """id -> (label, properties) for the ids that exist in this space."""
        rows = [{"id": i, "label": label} for i in dict.fromkeys(ids) if (label := label_of(i))]
        if not rows:
            return {}
        return {r["id"]: (r["label"], _native(r["properties"])) for r in self.run("lookup/nodes_by_id", rows=rows)}

    def _grouped(self, statement: str, ids: Sequence[str], key: str, field: str, **params: Any) -> dict[str, list[Row]]:
        if not ids:
            return {}
        records = self.run(statement, ids=list(dict.fromkeys(ids)), **params)
        return {r[key]: [_native(row) for row in r[field]] for r in records}

    def provenance(self, item_ids: Sequence[str]) -> dict[str, list[Row]]:
        """Knowledge item id -> the episodes that prove it."""
        return self._grouped("lookup/provenance", item_ids, "item_id", "episodes")

    def concepts_of(self, proposition_ids: Sequence[str]) -> dict[str, list[Row]]:
        return self._grouped("lookup/concepts_of", proposition_ids, "item_id", "concepts")

    def knowledge_of(self, episode_ids: Sequence[str]) -> dict[str, list[Row]]:
        """Episode id -> the propositions and prescriptions it proves (each row has its `label`)."""
        return self._grouped("lookup/knowledge_of_episodes", episode_ids, "episode_id", "knowledge")

    def episodes_of_sources(self, source_ids: Sequence[str], skip: int, limit: int) -> dict[str, tuple[list[Row], int]]:
        """Source id -> (a page of its episodes in order, how many it has)."""
        if not source_ids:
            return {}
        records = self.run("lookup/episodes_of_sources", ids=list(dict.fromkeys(source_ids)), skip=skip, limit=limit)
        return {r["source_id"]: ([_native(e) for e in r["episodes"]], r["total"]) for r in records}

    def stats(self) -> Row:
        return self.run("lookup/space_stats")[0].data()
