"""Reads and forgets stay in their space even when a relationship crosses into another one.

Ingestion never links two spaces, so the cross-space edges here are grafted by hand: they stand for a bug or a
hand edit. Every traversal must filter its far end by space, so such an edge neither shows another tenant's nodes
nor lets a forget in one space delete or keep alive anything of the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from graph.cascade_delete import Forgetter
from graph.consolidation.conflicts import alias_pairs
from graph.consolidation.correction import correct
from graph.consolidation.duplicates import Supersession, carry_late_proofs, load_active, supersede
from graph.consolidation.model import SOURCE_QUALITY
from graph.consolidation.report import figures
from graph.cypher import load
from graph.dimensions import build_dimensions
from graph.lookup import GraphReader
from graph.navigation import Navigator
from graph.recall.hits import ConceptHit
from graph.recall.neo4j_searcher import GraphSearcher
from tests.support.graph_queries import rows
from tests.support.jobs import ingest

# One foreign node per label, each linked to a node of the space by every relationship a read or forget follows.
GRAFT = """
MATCH (c:Concept {space: $space, key: 'caroline'})
MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(e:Episode {external_id: 'D1:3'})-[:PART_OF]->(s:Source)
WITH c, p, e, s ORDER BY p.id LIMIT 1
CREATE (fc:Concept {space: $other, id: 'con_foreign', key: 'foreign', name: 'foreign', idf: 9.0, df: 1})
CREATE (fp:Proposition {space: $other, id: 'prop_foreign', text: 'foreign statement', status: 'active',
                        confidence: 1.0, embedding: p.embedding, recorded_at: datetime()})
CREATE (fe:Episode {space: $other, id: 'ep_foreign', external_id: 'X:1', text: 'foreign turn', seq: 0,
                    embedding: e.embedding, recorded_at: datetime()})
CREATE (fs:Source {space: $other, id: 'src_foreign', external_id: 'foreign'})
CREATE (fd:Dimension {space: $other, id: 'dim_foreign', label: 'foreign'})
CREATE (c)-[:ASSOCIATED {count: 1000}]->(fc), (c)-[:SAME_AS]->(fc), (c)-[:IN]->(fd), (fd)<-[:IN]-(fc)
CREATE (fp)-[:MENTIONS]->(c), (p)-[:MENTIONS]->(fc), (fp)-[:PROVEN_BY]->(e), (p)-[:PROVEN_BY]->(fe)
CREATE (fe)-[:PART_OF]->(s), (fe)-[:PART_OF]->(fs)
RETURN c.id AS concept, p.id AS proposition, e.id AS episode, s.id AS source
"""
FOREIGN = {"con_foreign", "prop_foreign", "ep_foreign", "src_foreign", "dim_foreign", "foreign", "foreign statement"}


@pytest.fixture()
def grafted(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> Iterator[dict[str, str]]:
    ingest(space, [conversation])
    other = f"{space}-other"
    try:
        (ids,) = rows(driver, GRAFT, space=space, other=other)
        yield ids
    finally:
        driver.execute_query("MATCH (n {space: $other}) DETACH DELETE n", other=other)


def _leaks(value: Any) -> set[str]:
    """The foreign ids, keys and texts anywhere in `value` (models, dataclasses, dicts, lists)."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    elif hasattr(value, "__dataclass_fields__"):
        value = vars(value)
    if isinstance(value, dict):
        return set().union(*(_leaks(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_leaks(v) for v in value)) if value else set()
    return {value} & FOREIGN if isinstance(value, str) else set()


def test_navigation_and_lookups_never_cross_into_another_space(
    driver: neo4j.Driver, space: str, grafted: dict[str, str]
) -> None:
    build_dimensions(driver, "neo4j", space)
    navigator = Navigator(driver, "neo4j", space)
    reader = GraphReader(driver, "neo4j", space)
    dimensions = navigator.dimensions()
    page = navigator.concept_page("caroline")
    seen: dict[str, Any] = {
        "follow": [navigator.follow(grafted["concept"], link) for link in ("ASSOCIATED", "SAME_AS", "IN", "MENTIONS")],
        "follow_episode": navigator.follow(grafted["episode"], "PROVEN_BY"),
        "concept_page": page,
        "dimensions": dimensions,
        "browse": [navigator.browse_dimension(d.id, first=100) for d in dimensions],
        "episodes_of": navigator.episodes_of(grafted["proposition"]),
        "provenance": reader.provenance([grafted["proposition"]]),
        "concepts_of": reader.concepts_of([grafted["proposition"]]),
        "knowledge_of": reader.knowledge_of([grafted["episode"]]),
        "episodes_of_sources": reader.episodes_of_sources([grafted["source"]], 0, 100),
    }
    assert {name: _leaks(found) for name, found in seen.items() if _leaks(found)} == {}
    assert seen["episodes_of"] and seen["provenance"] and page.propositions  # the space's own stay


def test_recall_steps_never_cross_into_another_space(driver: neo4j.Driver, space: str, grafted: dict[str, str]) -> None:
    searcher = GraphSearcher(driver, "neo4j", space, None)
    vector = get_embedder().encode(["Caroline support group"])[0].tolist()
    seed = ConceptHit(grafted["concept"], "caroline", 1.0, 1)
    seen: dict[str, Any] = {
        "by_key": searcher.concepts_by_key(["caroline"]),
        "propagate": searcher.propagate([seed], fanout=50),
        "expand": searcher.expand({grafted["concept"]: 1.0}, vector, per_concept=50),
        "hydrate": searcher.hydrate("propositions", [(grafted["proposition"], None)], vector),
        "top_items": searcher.top_items([grafted["proposition"]], []),
        "episodes": searcher.dense("episodes", vector, 20),
    }
    assert {name: _leaks(found) for name, found in seen.items() if _leaks(found)} == {}


def test_forget_neither_deletes_nor_is_held_back_by_another_space(
    driver: neo4j.Driver, space: str, grafted: dict[str, str]
) -> None:
    forgetter = Forgetter(driver, "neo4j")
    (source,) = rows(
        driver, "MATCH (s:Source {space: $s, id: $id}) RETURN s.external_id AS name", s=space, id=grafted["source"]
    )
    result = forgetter.forget_sources(space, [grafted["source"]])
    assert grafted["source"] in result.sources, "a foreign episode kept the forgotten source alive"
    assert "prop_foreign" not in result.knowledge
    left = rows(driver, "MATCH (n {space: $other}) RETURN n.id AS id ORDER BY id", other=f"{space}-other")
    assert [r["id"] for r in left] == sorted(
        ["con_foreign", "prop_foreign", "ep_foreign", "src_foreign", "dim_foreign"]
    )
    assert source["name"].startswith("chat-1/")


def test_recall_never_resolves_a_statement_to_another_space(
    driver: neo4j.Driver, space: str, grafted: dict[str, str]
) -> None:
    """A statement merged into another is found through the proposition standing for it: never a foreign one."""
    (merged,) = rows(
        driver,
        "MATCH (p:Proposition {space: $space, id: $id}), (fp:Proposition {space: $other, id: 'prop_foreign'}) "
        "SET p.status = 'superseded' CREATE (fp)-[:SUPERSEDES {reason: 'merge'}]->(p) "
        "RETURN p.embedding AS vector",
        space=space,
        other=f"{space}-other",
        id=grafted["proposition"],
    )
    searcher = GraphSearcher(driver, "neo4j", space, None)
    seen: dict[str, Any] = {
        "dense": searcher.dense("propositions", merged["vector"], 20),
        "fulltext": searcher.fulltext("propositions", "support OR group OR caroline", 20),
    }
    assert {name: _leaks(found) for name, found in seen.items() if _leaks(found)} == {}


def test_a_foreign_mention_keeps_no_concept_of_a_forgotten_space_alive(
    driver: neo4j.Driver, space: str, grafted: dict[str, str]
) -> None:
    """Concept counts and orphan removal count this space's propositions only: the foreign proposition mentioning
    'caroline' neither raises its df nor keeps it once the space's own mentions are forgotten."""
    sources = [r["id"] for r in rows(driver, "MATCH (s:Source {space: $s}) RETURN s.id AS id", s=space)]
    Forgetter(driver, "neo4j").forget_sources(space, sources)
    left = rows(driver, "MATCH (c:Concept {space: $s}) RETURN c.key AS key", s=space)
    assert left == []
    assert rows(driver, "MATCH (c:Concept {id: 'con_foreign'}) RETURN c.key AS key") == [{"key": "foreign"}]


# The same foreign edges onto another proposition of the space, and foreign prescriptions solving its intents.
GRAFT_MORE = """
MATCH (q:Proposition {space: $space})-[:PROVEN_BY]->(:Episode {external_id: 'D2:1'})
WITH q ORDER BY q.id LIMIT 1
MATCH (fp:Proposition {space: $other, id: 'prop_foreign'}), (fc:Concept {space: $other, id: 'con_foreign'}),
      (fe:Episode {space: $other, id: 'ep_foreign'}), (fs:Source {space: $other, id: 'src_foreign'})
SET fs.kind = 'document'
CREATE (q)-[:MENTIONS]->(fc), (q)-[:PROVEN_BY]->(fe)
CREATE (ia:Intent {space: $space, id: 'int_a', text: 'plan a trip', embedding: q.embedding, status: 'active',
                   recorded_at: datetime()})
CREATE (ib:Intent {space: $space, id: 'int_b', text: 'plan a journey', embedding: q.embedding, status: 'active',
                   recorded_at: datetime()})
CREATE (own:Prescription {space: $space, id: 'pre_own', text: 'book a train'})-[:SOLVES]->(ib)
CREATE (fr:Prescription {space: $other, id: 'pre_foreign', text: 'foreign statement'})-[:SOLVES]->(ib)
RETURN q.id AS proposition
"""


def _foreign_edges(driver: neo4j.Driver, other: str) -> list[tuple[str, str, str]]:
    """Every relationship touching the other space, as (start id, type, end id): what must stay as grafted."""
    found = rows(
        driver,
        "MATCH (n {space: $other})-[r]-(m) RETURN DISTINCT startNode(r).id AS a, type(r) AS t, endNode(r).id AS b",
        other=other,
    )
    return sorted((r["a"], r["t"], r["b"]) for r in found)


def _foreign_neighbours(driver: neo4j.Driver, space: str, proposition_id: str) -> list[str]:
    query = "MATCH (:Proposition {space: $s, id: $id})-[]-(n) WHERE n.space <> $s RETURN n.id AS id"
    return [r["id"] for r in rows(driver, query, s=space, id=proposition_id)]


def test_consolidation_and_corrections_never_follow_an_edge_into_another_space(
    driver: neo4j.Driver, space: str, grafted: dict[str, str]
) -> None:
    """Reads of consolidation ignore foreign far ends (no foreign concept, proof, source kind, prescription or alias
    counted) and its writes carry nothing across: a correction and a merge inherit the space's proofs and concepts
    only, late proofs are not carried over a foreign link, an intent merge moves the space's prescriptions only."""
    other = f"{space}-other"
    (more,) = rows(driver, GRAFT_MORE, space=space, other=other)
    p, q = grafted["proposition"], more["proposition"]
    before = _foreign_edges(driver, other)
    views = {v.id: v for v in load_active(driver, "neo4j", space)[0]}
    own_support = rows(
        driver, "MATCH (:Proposition {id: $id})-[:PROVEN_BY]->(e:Episode {space: $s}) RETURN e", id=p, s=space
    )
    assert "con_foreign" not in views[p].concept_ids and views[p].support == len(own_support)
    assert views[q].source_quality == SOURCE_QUALITY["conversation"]  # not the foreign source's kind
    assert "foreign" not in set().union(*alias_pairs(driver, "neo4j", space))
    assert figures(driver, "neo4j", space).alias_edges == 0
    intents = {r["id"]: r["prescriptions"] for r in rows(driver, load("consolidate/active_intents"), space=space)}
    assert intents == {"int_a": 0, "int_b": 1}

    corrected = correct(space, p, "Caroline found the LGBTQ support group powerful.", embed=get_embedder().encode)
    assert _foreign_neighbours(driver, space, corrected.proposition_id) == []
    proofs = rows(driver, "MATCH (e:Episode) WHERE e.id IN $ids RETURN e.space AS space", ids=corrected.provenance)
    assert proofs == [{"space": space}]  # its proof, the correction itself, is the space's own episode
    survivor = rows(
        driver,
        "MATCH (x:Proposition {space: $s, status: 'active'}) WHERE NOT x.id IN [$q, $c] "
        "RETURN x.id AS id ORDER BY id LIMIT 1",
        s=space,
        q=q,
        c=corrected.proposition_id,
    )[0]["id"]
    assert supersede(driver, "neo4j", space, [Supersession(survivor, q, "merge", 0.95)]) == [q]
    assert _foreign_neighbours(driver, space, survivor) == []
    # A late proof reached `q` only through a foreign link: nothing is carried over it.
    rows(
        driver,
        "MATCH (s:Proposition {id: $s}), (fp:Proposition {id: 'prop_foreign'}), (old:Proposition {id: $q}) "
        "CREATE (s)-[:SUPERSEDES {reason: 'merge'}]->(fp)-[:SUPERSEDES {reason: 'merge'}]->(old)",
        s=corrected.proposition_id,
        q=q,
    )
    assert carry_late_proofs(driver, "neo4j", space) == 0

    moved = rows(
        driver,
        load("consolidate/merge_intents"),
        space=space,
        merges=[{"canonical": "int_a", "merged": "int_b", "similarity": 1.0}],
    )
    assert moved == [{"merged": 1, "moved": 1}]
    solves = rows(
        driver,
        "MATCH (r:Prescription)-[:SOLVES]->(i:Intent {space: $s}) RETURN r.id AS r, i.id AS i ORDER BY r",
        s=space,
    )
    assert solves == [{"r": "pre_foreign", "i": "int_b"}, {"r": "pre_own", "i": "int_a"}]
    chain = [(corrected.proposition_id, "SUPERSEDES", "prop_foreign"), ("prop_foreign", "SUPERSEDES", q)]
    assert _foreign_edges(driver, other) == sorted(before + chain)  # the other space is linked as it was
