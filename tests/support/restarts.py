"""Restarting the stack's services mid-test through the same infra scripts the test command starts them with;
whatever a test does, each service it touched is running again when it ends."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import neo4j

from engram.settings import PROJECT_ROOT
from tests.support.graph_queries import label_counts, relationship_counts, rows

SCRIPTS = {
    "neo4j": "infra/neo4j/neo4j.sh",
    "redis": "infra/redis/redis.sh",
    "worker": "infra/worker.sh",
    "api": "infra/api.sh",
}


def service(name: str, verb: str) -> None:
    subprocess.run(["bash", str(Path(PROJECT_ROOT) / SCRIPTS[name]), verb], check=True, timeout=300)


@contextmanager
def left_running(*names: str) -> Iterator[None]:
    """Starts each named service again on the way out (a no-op for one already running)."""
    try:
        yield
    finally:
        for name in names:
            service(name, "start")


def _content(node: str) -> str:
    """A node named by its content; a Space node by nothing (its name is the space's)."""
    return f"CASE WHEN {node}:Space THEN '' ELSE coalesce({node}.key, {node}.text, {node}.title, {node}.name, '') END"


def graph_signature(driver: neo4j.Driver, space: str) -> dict[str, Any]:
    """What a space holds, independent of its name (ids are derived from it): counts by label and by relationship
    type, and every node and relationship named by its label and content, duplicates included."""
    nodes = f"MATCH (n {{space: $s}}) RETURN labels(n)[0] AS label, {_content('n')} AS what ORDER BY label, what"
    edges = (
        f"MATCH (n {{space: $s}})-[r]->(m) RETURN type(r) AS type, labels(n)[0] AS label, {_content('n')} AS what, "
        f"labels(m)[0] AS to_label, {_content('m')} AS to ORDER BY type, label, what, to_label, to"
    )
    return {
        "labels": label_counts(driver, space),
        "relationships": relationship_counts(driver, space),
        "nodes": rows(driver, nodes, s=space),
        "edges": sorted(map(_undirected, rows(driver, edges, s=space)), key=str),
    }


def _undirected(edge: dict[str, Any]) -> tuple[str, ...]:
    """An ASSOCIATED edge is stored once per pair, pointing from the smaller id: the direction depends on the ids,
    which depend on the space's name."""
    ends = [(edge["label"], edge["what"]), (edge["to_label"], edge["to"])]
    if edge["type"] == "ASSOCIATED":
        ends.sort()
    return (edge["type"], *ends[0], *ends[1])
