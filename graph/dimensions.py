"""Dimensions: communities of the concept association graph (Louvain, through Graph Data Science), labelled
by their most important concepts; PageRank over the same graph becomes concept importance."""

from __future__ import annotations

import uuid
from collections import defaultdict

import neo4j
from pydantic import BaseModel

from engram.ids import stable_id
from graph.cypher import load
from graph.dimension_names import label, summary
from graph.gds import create_gds


class DimensionReport(BaseModel):
    dimensions: int
    concepts: int


def build_dimensions(driver: neo4j.Driver, database: str, space: str) -> DimensionReport:
    gds = create_gds(driver, database)
    graph_name = f"engram-dimensions-{space}-{uuid.uuid4().hex[:8]}"
    graph, _ = gds.graph.cypher.project(
        load("dimensions/project_concepts"), database=database, space=space, graph_name=graph_name
    )
    try:  # a projection lives in server memory: always drop it
        communities = gds.louvain.stream(graph, relationshipWeightProperty="weight")
        ranks = gds.pageRank.stream(graph, relationshipWeightProperty="weight")
        nodes = gds.util.asNodes(communities["nodeId"].tolist())
    finally:
        graph.drop()
    rank_of = dict(zip(ranks["nodeId"].tolist(), ranks["score"].tolist(), strict=True))
    top_rank = max(rank_of.values(), default=1.0) or 1.0
    groups: dict[int, list[tuple[float, neo4j.graph.Node]]] = defaultdict(list)
    for node_id, community, node in zip(communities["nodeId"], communities["communityId"], nodes, strict=True):
        groups[int(community)].append((rank_of[int(node_id)] / top_rank, node))
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
