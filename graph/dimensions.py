"""Dimensions: communities of the concept association graph (Louvain, through Graph Data Science), labelled
by their most important concepts; PageRank over the same graph becomes concept importance."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass

import neo4j
from pydantic import BaseModel

from engram.ids import stable_id
from graph.cypher import load
from graph.dimension_names import label, summary
from graph.gds import create_gds


class DimensionReport(BaseModel):
    dimensions: int
    concepts: int


@dataclass(frozen=True)
class Communities:
    """Louvain communities and PageRank scores of a space's concepts, by GDS internal node id."""

    node_ids: list[int]
    community_ids: list[int]
    rank_of: dict[int, float]


# GDS threads for Louvain and PageRank (GDS's default is 4). Consolidation is background work on cores it shares with
# the API and Neo4j's queries, and on a space's association graph more threads only cost: a detection (projection,
# Louvain, PageRank) took several times the wall time and more of Neo4j's CPU with 4 threads than with 1, from small
# spaces to large ones (docs/tuning.md).
DIMENSION_THREADS = 1


def detect_communities(
    driver: neo4j.Driver, database: str, space: str, threads: int = DIMENSION_THREADS
) -> Communities:
    """Projects the space's association graph, runs Louvain and PageRank on `threads` GDS threads, drops the
    projection."""
    gds = create_gds(driver, database)
    graph_name = f"engram-dimensions-{space}-{uuid.uuid4().hex[:8]}"
    graph, _ = gds.graph.cypher.project(
        load("dimensions/project_concepts"), database=database, space=space, graph_name=graph_name
    )
    try:  # a projection lives in server memory: always drop it
        communities = gds.louvain.stream(graph, relationshipWeightProperty="weight", concurrency=threads)
        ranks = gds.pageRank.stream(graph, relationshipWeightProperty="weight", concurrency=threads)
    finally:
        graph.drop()
    return Communities(
        node_ids=[int(n) for n in communities["nodeId"].tolist()],
        community_ids=[int(c) for c in communities["communityId"].tolist()],
        rank_of=dict(zip(ranks["nodeId"].tolist(), ranks["score"].tolist(), strict=True)),
    )


def build_dimensions(
    driver: neo4j.Driver, database: str, space: str, threads: int = DIMENSION_THREADS
) -> DimensionReport:
    return write_dimensions(driver, database, space, detect_communities(driver, database, space, threads))


def write_dimensions(driver: neo4j.Driver, database: str, space: str, found: Communities) -> DimensionReport:
    """Replaces the space's dimensions with the communities found."""
    records, _, _ = driver.execute_query(
        load("dimensions/concepts_of_nodes"), node_ids=found.node_ids, space=space, database_=database
    )
    concept_of = {int(r["node_id"]): {"id": r["id"], "key": r["key"]} for r in records}
    top_rank = max(found.rank_of.values(), default=1.0) or 1.0
    groups: dict[int, list[tuple[float, dict[str, str]]]] = defaultdict(list)
    for node_id, community in zip(found.node_ids, found.community_ids, strict=True):
        if node_id in concept_of:  # else deleted since the projection: nothing to place
            groups[community].append((found.rank_of[node_id] / top_rank, concept_of[node_id]))
    rows = []
    for members in groups.values():
        members.sort(key=lambda m: -m[0])
        keys = [node["key"] for _, node in members]
        rows.append(
            {
                "id": stable_id("dim", space, members[0][1]["id"]),
                "label": label(keys),
                "summary": summary(keys),
                "members": [{"id": node["id"], "importance": round(score, 6)} for score, node in members],
            }
        )
    with driver.session(database=database) as session:
        session.execute_write(
            lambda tx: tx.run(load("dimensions/write_dimensions"), space=space, communities=rows).consume()
        )
    return DimensionReport(dimensions=len(rows), concepts=sum(len(r["members"]) for r in rows))
