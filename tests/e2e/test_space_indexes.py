"""A large space gets vector and full-text indexes of its own: created, filled, kept up to date by writes, used
by recall, dropped with the space."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from graph.admin import delete_space
from graph.params import vector_param
from graph.recall.config import SearchLimits
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.search_statements import SHARED_FULLTEXT_INDEXES, SHARED_VECTOR_INDEXES
from graph.space_indexes import SpaceIndexes, dedicate
from tests.support.graph_queries import rows
from tests.support.jobs import ingest


def _index_states(driver: neo4j.Driver, names: SpaceIndexes) -> dict[str, str]:
    found = rows(
        driver,
        "SHOW INDEXES YIELD name, state, type, labelsOrTypes WHERE name IN $names"
        " RETURN name, state, type, labelsOrTypes[0] AS label",
        names=[i.name for i in names.indexes()],
    )
    expected = {i.name: ("VECTOR" if i.ddl == "create_vector_index" else "FULLTEXT", i.label) for i in names.indexes()}
    assert all((r["type"], r["label"]) == expected[r["name"]] for r in found)
    return {r["name"]: r["state"] for r in found}


def _unlabelled(driver: neo4j.Driver, space: str, names: SpaceIndexes) -> int:
    found = rows(
        driver,
        "MATCH (n {space: $space}) WHERE (n:Proposition AND NOT $proposition_label IN labels(n))"
        " OR (n:Episode AND NOT $episode_label IN labels(n)) OR (n:Concept AND NOT $concept_label IN labels(n))"
        " RETURN count(n) AS n",
        space=space,
        **names.labels(),
    )
    return int(found[0]["n"])


def _labelled(driver: neo4j.Driver, names: SpaceIndexes) -> dict[str, int]:
    return {
        kind: int(rows(driver, f"MATCH (n:{names.label(kind)}) RETURN count(n) AS n")[0]["n"])
        for kind in ("propositions", "episodes", "concepts")
    }


def _exact_concepts(driver: neo4j.Driver, space: str, vector: list[float], k: int) -> list[str]:
    found = rows(
        driver,
        "MATCH (c:Concept {space: $space}) WITH c, vector.similarity.cosine(c.embedding, $vector) AS score"
        " ORDER BY score DESC, c.id LIMIT $k RETURN c.id AS id",
        space=space,
        vector=vector,
        k=k,
    )
    return [r["id"] for r in found]


def _containing(driver: neo4j.Driver, space: str, label: str, word: str) -> set[str]:
    found = rows(
        driver,
        f"MATCH (n:{label} {{space: $space}}) WHERE toLower(n.text) CONTAINS $word"
        " AND coalesce(n.status, 'active') = 'active' RETURN collect(n.id) AS ids",
        space=space,
        word=word,
    )
    return set(found[0]["ids"])


def test_a_large_space_is_searched_through_indexes_of_its_own(
    driver: neo4j.Driver,
    space: str,
    conversation: dict[str, Any],
    document: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = SpaceIndexes.of(space)
    ingest(space, [conversation])
    assert not dedicate(driver, "neo4j", space, threshold=1_000_000)  # not large: nothing made
    assert _index_states(driver, names) == {}

    assert dedicate(driver, "neo4j", space, threshold=3)
    assert _index_states(driver, names) == {i.name: "ONLINE" for i in names.indexes()}
    assert _unlabelled(driver, space, names) == 0
    labelled = _labelled(driver, names)
    assert min(labelled.values()) > 0

    # Writes after that join the space's indexes (the worker labels what it writes, concepts included).
    ingest(space, [document])
    assert _unlabelled(driver, space, names) == 0
    after = _labelled(driver, names)
    assert all(after[kind] > labelled[kind] for kind in labelled), (labelled, after)
    assert dedicate(driver, "neo4j", space, threshold=3)  # again: changes nothing, still ready

    # Recall searches them (past the exact-scan and scoped full-text sizes), and they find what an exact search
    # finds (the shared indexes may not, where other spaces fill them: this space is a sliver of them).
    vector = vector_param(get_embedder().encode(["Caroline went to the LGBTQ support group"])[0])
    exact = {
        label: GraphSearcher(driver, "neo4j", space, None).dense(label, vector, 5)
        for label in ("propositions", "episodes")
    }
    searched = SearchLimits(exact_scan_max=0, scoped_fulltext_max=0)
    own = GraphSearcher(driver, "neo4j", space, None, limits=searched)
    shared = GraphSearcher(driver, "neo4j", space, None, own_indexes=False, limits=searched)
    for label in ("propositions", "episodes", "concepts"):
        assert own.vector_index(label) == names.vector(label)
        assert shared.vector_index(label) == SHARED_VECTOR_INDEXES[label]
    for label in ("propositions", "episodes"):
        assert own.fulltext_index(label) == names.fulltext(label)
        assert shared.fulltext_index(label) == SHARED_FULLTEXT_INDEXES[label]
    assert own.vector_index("prescriptions") == SHARED_VECTOR_INDEXES["prescriptions"]
    assert own.fulltext_index("prescriptions") == SHARED_FULLTEXT_INDEXES["prescriptions"]
    for label, expected in exact.items():
        assert len(expected) == 5
        assert [h.id for h in own.dense(label, vector, 5)] == [h.id for h in expected]
    expected_concepts = _exact_concepts(driver, space, vector, 5)
    assert [c.id for c in own.dense_concepts(vector, 5, min_score=-1.0)] == expected_concepts
    for label, node in (("propositions", "Proposition"), ("episodes", "Episode")):
        containing = _containing(driver, space, node, "lgbtq")
        assert 0 < len(containing) < 50
        assert {h.id for h in own.fulltext(label, "lgbtq", 50)} == containing

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
        names = SpaceIndexes.of(space)
        for kind in ("propositions", "episodes", "concepts"):
            in_index = rows(driver, f"MATCH (n:{names.label(kind)}) RETURN collect(DISTINCT n.space) AS spaces")
            assert in_index[0]["spaces"] == [space]
        vector = vector_param(get_embedder().encode(["Melanie painted a sunrise"])[0])
        theirs = GraphSearcher(driver, "neo4j", other, None, limits=SearchLimits(exact_scan_max=0))
        assert theirs.vector_index("propositions") == SHARED_VECTOR_INDEXES["propositions"]
        assert theirs.fulltext_index("propositions") == SHARED_FULLTEXT_INDEXES["propositions"]
        hits = theirs.dense("propositions", vector, 5) + theirs.fulltext("propositions", "painted OR sunrise", 5)
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
    assert _index_states(driver, SpaceIndexes.of(bad)) == {}
    assert rows(driver, "SHOW INDEXES YIELD name WHERE name = 'proposition_embedding' RETURN name")
