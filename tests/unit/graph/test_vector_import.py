from typing import Any, cast

import neo4j

from engram.embedder_identity import EmbedderIdentity
from graph.space_indexes import SpaceIndexes
from graph.vector_import import VectorImporter

EMBEDDER = cast(EmbedderIdentity, None)  # own_labels reads neither the driver nor the embedder


def importer(**options: Any) -> VectorImporter:
    return VectorImporter(cast(neo4j.Driver, None), "neo4j", "acme", EMBEDDER, dedicate_from=100, **options)


def test_a_file_large_enough_for_own_indexes_writes_the_searchable_nodes_with_the_space_labels() -> None:
    names = SpaceIndexes.of("acme")
    labels = importer().own_labels({"Space": 1, "Source": 3, "Episode": 100, "Proposition": 80, "Concept": 9})
    assert labels == {
        "Episode": [names.label("episodes")],
        "Proposition": [names.label("propositions")],
        "Concept": [names.label("concepts")],
    }


def test_a_smaller_file_or_the_earlier_order_writes_no_space_labels() -> None:
    assert importer().own_labels({"Episode": 99, "Proposition": 99}) == {}
    assert importer(own_indexes_first=False).own_labels({"Episode": 100, "Proposition": 100}) == {}


def test_the_node_statement_sets_the_labels_it_is_given() -> None:
    statement = VectorImporter.node_statement("Proposition")
    assert "MERGE (n:Proposition {space: $space, id: r.id})" in statement and "SET n:$($labels)" in statement
