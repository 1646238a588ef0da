"""Forgetting cascades: knowledge only the forgotten episodes prove goes, shared knowledge stays, and a
forgotten fact cannot be found by any search any more."""

from __future__ import annotations

from typing import Any

import neo4j

from engram.embedding import get_embedder
from graph.cascade_delete import Forgetter
from tests.support.graph_queries import association_errors, rows
from tests.support.jobs import ingest

VECTOR_SEARCH = (
    "CALL db.index.vector.queryNodes('proposition_embedding', 200, $vector) YIELD node, score "
    "WHERE node.space = $s RETURN node.text AS text"
)
FULLTEXT_SEARCH = (
    "CALL db.index.fulltext.queryNodes('proposition_text', $q) YIELD node "
    "WHERE node.space = $s RETURN node.text AS text"
)
EPISODE_FULLTEXT = (
    "CALL db.index.fulltext.queryNodes('episode_text', $q) YIELD node WHERE node.space = $s RETURN node.text AS text"
)


def _searchable(driver: neo4j.Driver, space: str, phrase: str) -> bool:
    vector = get_embedder().encode([phrase])[0].tolist()
    by_vector = any(phrase in r["text"] for r in rows(driver, VECTOR_SEARCH, vector=vector, s=space))
    by_text = any(phrase in r["text"] for r in rows(driver, FULLTEXT_SEARCH, q=f'"{phrase}"', s=space))
    by_episode = any(phrase in r["text"] for r in rows(driver, EPISODE_FULLTEXT, q=f'"{phrase}"', s=space))
    return by_vector or by_text or by_episode


def test_forgetting_a_source_removes_what_only_it_proves(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    assert _searchable(driver, space, "charity race")
    (source,) = rows(
        driver, "MATCH (s:Source {space: $s}) WHERE s.external_id ENDS WITH '/s2' RETURN s.id AS id", s=space
    )
    result = Forgetter(driver, "neo4j").forget_sources(space, [source["id"]])
    assert len(result.episodes) == 2 and result.sources == [source["id"]]
    assert len(result.knowledge) >= 2
    assert not _searchable(driver, space, "charity race")
    assert not _searchable(driver, space, "adoption agencies")
    assert _searchable(driver, space, "support group")  # the other session is untouched
    assert rows(driver, "MATCH (c:Concept {space: $s}) WHERE NOT ()-[:MENTIONS]->(c) RETURN c.key", s=space) == []
    assert rows(driver, "MATCH (c:Concept {space: $s, key: 'charity race'}) RETURN c", s=space) == []
    assert association_errors(driver, space) == (0, 0)


def test_shared_knowledge_only_loses_the_link(driver: neo4j.Driver, space: str) -> None:
    fact = "Ann's favourite city is Lisbon in Portugal."
    sessions = [{"id": f"s{i}", "turns": [{"speaker": "Ann", "text": fact, "id": f"t{i}"}]} for i in (1, 2)]
    ingest(space, [{"type": "conversation", "id": "c", "sessions": sessions}])
    (first,) = rows(driver, "MATCH (e:Episode {space: $s, external_id: 't1'}) RETURN e.id AS id", s=space)
    result = Forgetter(driver, "neo4j").forget_episodes(space, [first["id"]])
    assert result.knowledge == []
    (kept,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s})-[:PROVEN_BY]->(e) RETURN p.text AS text, collect(e.external_id) AS proofs",
        s=space,
    )
    assert kept["proofs"] == ["t2"]
    assert rows(driver, "MATCH (c:Concept {space: $s, key: 'lisbon'}) RETURN c.df AS df", s=space) == [{"df": 1}]


def test_forgetting_unknown_ids_removes_nothing(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> None:
    ingest(space, [conversation])
    before = rows(driver, "MATCH (n {space: $s}) RETURN count(n) AS n", s=space)
    result = Forgetter(driver, "neo4j").forget_episodes(space, ["ep_does_not_exist"])
    assert result.episodes == [] and result.knowledge == []
    assert rows(driver, "MATCH (n {space: $s}) RETURN count(n) AS n", s=space) == before


def test_forgetting_is_scoped_to_the_space(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> None:
    other = f"{space}-other"
    try:
        ingest(space, [conversation])
        ingest(other, [conversation])
        (episode,) = rows(driver, "MATCH (e:Episode {space: $s, external_id: 'D2:2'}) RETURN e.id AS id", s=other)
        result = Forgetter(driver, "neo4j").forget_episodes(space, [episode["id"]])
        assert result.episodes == []
        assert _searchable(driver, other, "charity race")
    finally:
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=other)
