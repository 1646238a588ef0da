"""How a recall's items are shown beside the ranking: grouped by source, and as a Neo4j Browser query."""

from __future__ import annotations

import json
from collections.abc import Sequence

from graph.recall.models import RecallItem, SourceGroup


def by_source(items: Sequence[RecallItem]) -> list[SourceGroup]:
    """The items grouped by the source of their first proving episode, sources in order of their best item."""
    groups: dict[str, list[str]] = {}
    for item in items:
        if item.provenance:
            groups.setdefault(item.provenance[0].source_id, []).append(item.id)
    return [SourceGroup(source_id=source, item_ids=ids) for source, ids in groups.items()]


def browser_cypher(space: str, items: Sequence[RecallItem]) -> str:
    """A Cypher query that shows the returned items, their provenance and concepts in Neo4j Browser (an episode
    item: its source); it never leaves the space, even along a stray edge."""
    ids = json.dumps([item.id for item in items])
    return (
        f"MATCH (n) WHERE n.space = {json.dumps(space)} AND n.id IN {ids}\n"
        "OPTIONAL MATCH (n)-[r:PROVEN_BY|MENTIONS|SOLVES|PART_OF]->(m) WHERE m.space = n.space\n"
        "RETURN n, r, m"
    )
