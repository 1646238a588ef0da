"""Navigation: dimensions from GDS communities, concept pages, typed links, episodes of knowledge."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from graph.cypher import load
from graph.dimensions import build_dimensions, detect_communities, write_dimensions
from graph.gds import create_gds
from graph.navigation import Navigator, NotFound, UnknownLinkType
from tests.support.graph_queries import plan_operators, rows
from tests.support.jobs import ingest


@pytest.fixture()
def navigator(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> Navigator:
    ingest(space, [conversation])
    report = build_dimensions(driver, "neo4j", space)
    assert report.dimensions >= 1 and report.concepts >= 5
    return Navigator(driver, "neo4j", space)


def test_every_associated_concept_lands_in_one_dimension(
    navigator: Navigator, driver: neo4j.Driver, space: str
) -> None:
    dimensions = navigator.dimensions()
    assert dimensions and all(d.label and d.concepts > 0 for d in dimensions)
    assert rows(driver, "MATCH (c:Concept {space: $s}) WHERE COUNT { (c)-[:IN]->() } > 1 RETURN c", s=space) == []
    linked = "MATCH (c:Concept {space: $s}) WHERE (c)-[:ASSOCIATED]-() AND NOT (c)-[:IN]->() RETURN c.key"
    assert rows(driver, linked, s=space) == []
    assert not any(
        name.startswith(f"engram-dimensions-{space}") for name in create_gds(driver, "neo4j").graph.list()["graphName"]
    )


def test_browse_read_follow_and_prove(navigator: Navigator) -> None:
    dimension = navigator.dimensions()[0]
    pages = navigator.browse_dimension(dimension.id, first=5)
    assert 0 < len(pages) <= 5 and pages[0].importance >= pages[-1].importance
    page = navigator.concept_page("caroline")
    assert page.df >= 2 and page.propositions and page.dimension_id
    assert navigator.concept_page("Caroline's").id == page.id  # a key as a person writes it: its schema form
    assert all("D" in e for p in page.propositions for e in p.episodes)
    neighbours = navigator.follow(page.id, "ASSOCIATED", first=3)
    assert 0 < len(neighbours) <= 3 and all(n.label == "Concept" for n in neighbours)
    # The strongest first, weighted co-mentions x idf x idf as the concept page reports them.
    weights = [n.properties["weight"] for n in neighbours]
    on_page = {a["key"]: a["weight"] for a in page.associated}
    assert weights == sorted(weights, reverse=True) and weights[0] == pytest.approx(max(on_page.values()))
    episodes = navigator.episodes_of(page.propositions[0].id)
    assert episodes and episodes[0].source.startswith("chat-1/")


def test_bad_navigation_input(navigator: Navigator) -> None:
    with pytest.raises(UnknownLinkType):
        navigator.follow("x", "KNOWS]->(m) DETACH DELETE m //")
    with pytest.raises(NotFound):
        navigator.concept_page("no such concept")
    assert navigator.follow("no-such-node", "ASSOCIATED") == []
    assert navigator.browse_dimension("no-such-dimension") == []


def test_follow_and_episodes_of_seek_their_node_by_index(
    navigator: Navigator, driver: neo4j.Driver, space: str
) -> None:
    # A statement that scans (every node of every space, or every node of a label) costs what the whole database
    # holds on each call; a seek on (space, id) costs the same whatever the other tenants store.
    params = {"space": space, "node_id": "x", "item_id": "x", "rel_type": "NEXT", "limit": 5}
    for statement in ("navigation/follow_link", "navigation/episodes_of"):
        scans = [op for op in plan_operators(driver, load(statement), **params) if "Scan" in op]
        assert scans == [], f"{statement} scans: {scans}"
    (first,) = rows(
        driver, "MATCH (e:Episode {space: $s, external_id: 'D1:1'}) RETURN e.id AS id, e.source_id AS source", s=space
    )
    assert [n.label for n in navigator.follow(first["id"], "NEXT")] == ["Episode"]
    assert {n.label for n in navigator.follow(first["source"], "PART_OF")} == {"Episode"}


def test_dimensions_skip_concepts_forgotten_while_communities_were_computed(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    """A forget (or a merge) may delete a concept between the GDS projection and the write: its community
    membership is dropped, the rest written (the soak saw consolidation fail with `zip() ... shorter`)."""
    ingest(space, [conversation])
    found = detect_communities(driver, "neo4j", space)
    gone = rows(driver, "MATCH (c:Concept {space: $s})-[:ASSOCIATED]-() RETURN c.key AS key LIMIT 1", s=space)[0]
    rows(driver, "MATCH (c:Concept {space: $s, key: $k}) DETACH DELETE c", s=space, k=gone["key"])
    report = write_dimensions(driver, "neo4j", space, found)
    assert report.concepts == len(found.node_ids) - 1
    named = rows(driver, "MATCH (d:Dimension {space: $s}) RETURN d.label AS label, d.summary AS summary", s=space)
    keys = [k for d in named for k in (*d["label"].split(" / "), *d["summary"].split(": ", 1)[1].split(", "))]
    assert keys and gone["key"] not in keys
    unplaced = "MATCH (c:Concept {space: $s}) WHERE (c)-[:ASSOCIATED]-() AND NOT (c)-[:IN]->() RETURN c.key"
    assert rows(driver, unplaced, s=space) == []


def test_one_gds_thread_finds_the_communities_four_find(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    """Consolidation runs Louvain and PageRank on one thread (graph/dimensions.py: 4, GDS's default, took ~7x the
    wall time on a 2-core machine): the communities and ranks are the same."""
    ingest(space, [conversation])
    one, four = (detect_communities(driver, "neo4j", space, threads) for threads in (1, 4))

    def partition(found: Any) -> set[frozenset[int]]:
        members: dict[int, set[int]] = {}
        for node, community in zip(found.node_ids, found.community_ids, strict=True):
            members.setdefault(community, set()).add(node)
        return {frozenset(m) for m in members.values()}

    assert len(one.node_ids) >= 5 and partition(one) == partition(four)
    assert one.rank_of.keys() == four.rank_of.keys()
    assert all(abs(one.rank_of[n] - four.rank_of[n]) < 1e-6 for n in one.rank_of)
