"""Pages are cut in Cypher: a page of a large source's episodes, or a concept page of a concept with thousands of
associations, holds about as much memory in Neo4j as the same page of a small one (measured by PROFILE's
GlobalMemory, not by time); `Source.episodes` across a response is one statement (DataLoader)."""

from __future__ import annotations

import neo4j

from graph.cypher import load
from graph.navigation import MAX_ASSOCIATED, Navigator
from tests.support.graphql_client import GraphQL

LARGE = 3_000
TEXT = "An episode long enough that holding three thousand of them shows in the memory Neo4j reports. " * 3


def _grow_source(driver: neo4j.Driver, space: str, source_id: str, episodes: int) -> None:
    driver.execute_query(
        "MERGE (s:Source {space: $space, id: $source}) SET s.kind = 'document', s.external_id = $source "
        "WITH s UNWIND range(0, $n - 1) AS i "
        "CREATE (:Episode {space: $space, id: 'ep_' + $source + '_' + i, seq: i, text: $text})-[:PART_OF]->(s)",
        space=space, source=source_id, n=episodes, text=TEXT,
    )  # fmt: skip


def _grow_concept(driver: neo4j.Driver, space: str, key: str, neighbours: int) -> None:
    driver.execute_query(
        "MERGE (c:Concept {space: $space, id: 'con_' + $key}) SET c.key = $key, c.name = $key, c.df = 1, c.idf = 1.0 "
        "WITH c UNWIND range(1, $n) AS i "
        "CREATE (c)-[:ASSOCIATED {count: i}]->(:Concept {space: $space, id: 'con_' + $key + '_' + i, "
        "key: $key + ' neighbour ' + i + ' ' + $text, df: 1, idf: 1.0})",
        space=space, key=key, n=neighbours, text=TEXT,
    )  # fmt: skip


def _peak_memory(driver: neo4j.Driver, statement: str, **params: object) -> int:
    with driver.session() as session:
        summary = session.run("PROFILE " + load(statement), **params).consume()
    assert summary.profile is not None
    return int(summary.profile["args"]["GlobalMemory"])


def test_a_page_of_a_large_source_holds_only_the_page(driver: neo4j.Driver, space: str) -> None:
    _grow_source(driver, space, "src_large", LARGE)
    _grow_source(driver, space, "src_small", 30)
    records, _, _ = driver.execute_query(
        load("lookup/episodes_of_sources"), space=space, ids=["src_large", "src_small"], skip=100, limit=21
    )
    pages = {r["source_id"]: r for r in records}
    assert [e["seq"] for e in pages["src_large"]["episodes"]] == list(range(100, 121))
    assert pages["src_large"]["total"] == LARGE and pages["src_small"]["total"] == 30
    assert pages["src_small"]["episodes"] == []  # 30 episodes: nothing past the 100th
    large = _peak_memory(driver, "lookup/episodes_of_sources", space=space, ids=["src_large"], skip=0, limit=21)
    small = _peak_memory(driver, "lookup/episodes_of_sources", space=space, ids=["src_small"], skip=0, limit=21)
    assert large < 2 * small + 64_000, (large, small)  # before: every episode of the source was collected


def test_a_concept_page_keeps_only_its_strongest_associations(driver: neo4j.Driver, space: str) -> None:
    _grow_concept(driver, space, "hub", LARGE)
    _grow_concept(driver, space, "leaf", 5)
    page = Navigator(driver, "neo4j", space).concept_page("hub", 1, 0)
    weights = [a["weight"] for a in page.associated]
    assert len(weights) == MAX_ASSOCIATED and weights == sorted(weights, reverse=True) and weights[0] == LARGE
    large = _peak_memory(driver, "navigation/concept_page", space=space, key="hub", max_associated=MAX_ASSOCIATED)
    small = _peak_memory(driver, "navigation/concept_page", space=space, key="leaf", max_associated=MAX_ASSOCIATED)
    assert large < 2 * small + 256_000, (large, small)


def test_episodes_of_many_sources_are_one_statement(gql: GraphQL, driver: neo4j.Driver, space: str) -> None:
    sources = [f"src_{i}" for i in range(6)]
    for source in sources:
        _grow_source(driver, space, source, 3)
    page = "episodes(first: 2) { totalCount edges { node { id } } }"
    fields = " ".join(f'{source}: node(id: "{source}") {{ ... on Source {{ {page} }} }}' for source in sources)
    response = gql.raw("{ " + fields + " }").json()
    assert not response.get("errors"), response["errors"]
    assert all(response["data"][s]["episodes"]["totalCount"] == 3 for s in sources)
    assert all(len(response["data"][s]["episodes"]["edges"]) == 2 for s in sources)
    # One statement for the six sources, one for their episodes (before: one per source).
    assert response["extensions"]["cost"]["neo4jQueries"] == 2
