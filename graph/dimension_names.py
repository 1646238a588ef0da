"""How a dimension is named: by its most important concepts' keys (kept apart from graph/dimensions.py, which needs
the Graph Data Science client, so the writers renaming dimensions after a deletion do not load it)."""

from __future__ import annotations

import neo4j

from graph.cypher import load

LABEL_CONCEPTS = 3
SUMMARY_CONCEPTS = 8


def label(keys: list[str]) -> str:
    return " / ".join(keys[:LABEL_CONCEPTS])


def summary(keys: list[str]) -> str:
    return f"{len(keys)} concepts: {', '.join(keys[:SUMMARY_CONCEPTS])}"


def rename_dimensions(tx: neo4j.ManagedTransaction, space: str) -> None:
    """Names the space's dimensions again from the concepts left in them (after concepts were deleted)."""
    tx.run(
        load("dimensions/rename"), space=space, label_concepts=LABEL_CONCEPTS, summary_concepts=SUMMARY_CONCEPTS
    ).consume()
