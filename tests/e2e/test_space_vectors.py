"""A large space gets vector indexes of its own: created, filled, kept up to date by writes, used by recall,
dropped with the space."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from graph.admin import delete_space
from graph.params import vector_param
from graph.recall import search
from graph.recall.search import SHARED_VECTOR_INDEXES, GraphSearcher
from graph.space_vectors import SpaceVectorIndexes, dedicate
from tests.support.graph_queries import rows
from tests.support.jobs import ingest


def _index_states(driver: neo4j.Driver, names: SpaceVectorIndexes) -> dict[str, str]:
    found = rows(
        driver,
        "SHOW INDEXES YIELD name, state, type WHERE name IN $names RETURN name, state, type",
        names=list(names.by_label().values()),
    )
    assert all(r["type"] == "VECTOR" for r in found)
    return {r["name"]: r["state"] for r in found}


def _unlabelled(driver: neo4j.Driver, space: str, names: SpaceVectorIndexes) -> int:
    found = rows(
        driver,
        "MATCH (n {space: $space}) WHERE (n:Proposition AND NOT $proposition_label IN labels(n))"
        " OR (n:Episode AND NOT $episode_label IN labels(n)) RETURN count(n) AS n",
        space=space,
        **names.labels(),
    )
    return int(found[0]["n"])


def _labelled(driver: neo4j.Driver, names: SpaceVectorIndexes) -> int:
    query = f"MATCH (n) WHERE n:{names.proposition_label} OR n:{names.episode_label} RETURN count(n) AS n"
    return int(rows(driver, query)[0]["n"])


def test_a_large_space_is_searched_through_vector_indexes_of_its_own(
    driver: neo4j.Driver,
    space: str,
    conversation: dict[str, Any],
    document: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = SpaceVectorIndexes.of(space)
    ingest(space, [conversation])
    assert not dedicate(driver, "neo4j", space, threshold=1_000_000)  # not large: nothing made
    assert _index_states(driver, names) == {}

    assert dedicate(driver, "neo4j", space, threshold=3)
    assert _index_states(driver, names) == {names.propositions: "ONLINE", names.episodes: "ONLINE"}
    assert _unlabelled(driver, space, names) == 0
    labelled = _labelled(driver, names)
    assert labelled > 0

    # Writes after that join the space's indexes (the worker labels what it writes).
    ingest(space, [document])
    assert _unlabelled(driver, space, names) == 0
    assert _labelled(driver, names) > labelled
    assert dedicate(driver, "neo4j", space, threshold=3)  # again: changes nothing, still ready

    # Recall searches them (past the exact-scan size), and they find what an exact scan finds (the shared index
    # may not, where other spaces fill it: this space is a sliver of it).
    vector = vector_param(get_embedder().encode(["Caroline went to the LGBTQ support group"])[0])
    exact = {
        label: GraphSearcher(driver, "neo4j", space, None).dense(label, vector, 5)
        for label in ("propositions", "episodes")
    }
    monkeypatch.setattr(search, "EXACT_SCAN_MAX", 0)
    own = GraphSearcher(driver, "neo4j", space, None)
    shared = GraphSearcher(driver, "neo4j", space, None, own_vector_indexes=False)
    assert own.vector_index("propositions") == names.propositions
    assert own.vector_index("episodes") == names.episodes
    assert own.vector_index("prescriptions") == SHARED_VECTOR_INDEXES["prescriptions"]
    assert shared.vector_index("propositions") == SHARED_VECTOR_INDEXES["propositions"]
    for label, expected in exact.items():
        assert len(expected) == 5
        assert [h.id for h in own.dense(label, vector, 5)] == [h.id for h in expected]

    delete_space(driver, "neo4j", space)
    assert _index_states(driver, names) == {}


def test_another_space_is_not_in_a_space_s_own_index(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = f"{space}-other"
    try:
        ingest(space, [conversation])
        ingest(other, [conversation])  # the same text: the same vectors, the same scores
        assert dedicate(driver, "neo4j", space, threshold=3)
        names = SpaceVectorIndexes.of(space)
        in_index = rows(
            driver,
            f"MATCH (n) WHERE n:{names.proposition_label} OR n:{names.episode_label}"
            " RETURN collect(DISTINCT n.space) AS spaces",
        )[0]["spaces"]
        assert in_index == [space]
        monkeypatch.setattr(search, "EXACT_SCAN_MAX", 0)
        vector = vector_param(get_embedder().encode(["Melanie painted a sunrise"])[0])
        theirs = GraphSearcher(driver, "neo4j", other, None)
        assert theirs.vector_index("propositions") == SHARED_VECTOR_INDEXES["propositions"]
        hits = theirs.dense("propositions", vector, 5)
        found = rows(
            driver,
            "MATCH (n:Proposition) WHERE n.id IN $ids RETURN collect(n.space) AS spaces",
            ids=[h.id for h in hits],
        )
        assert hits and set(found[0]["spaces"]) == {other}
    finally:
        delete_space(driver, "neo4j", space)
        delete_space(driver, "neo4j", other)


def test_a_malformed_space_name_is_refused_before_anything_is_made(driver: neo4j.Driver) -> None:
    bad = "x`) DROP INDEX proposition_embedding //"
    with pytest.raises(ValueError, match="invalid space name"):
        dedicate(driver, "neo4j", bad, threshold=0)
    assert _index_states(driver, SpaceVectorIndexes.of(bad)) == {}
    assert rows(driver, "SHOW INDEXES YIELD name WHERE name = 'proposition_embedding' RETURN name")
