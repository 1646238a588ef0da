"""The in-memory searcher the unit tests recall over (tests/support/memory_searcher.py) answers as the Neo4j one does
(graph/recall/neo4j_searcher.py), so that it cannot drift from the Cypher statements: a small conversation is imported
into a space of the test stack, copied node for node into a `MemoryGraph`, and every operation below is asked of both
searchers with the same arguments. Where the in-memory searcher is documented to differ (`MemorySearcher`'s list:
full-text scores, unordered rows), the comparison is of what both promise (the set of ids, not their order)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.settings import EngramSettings
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.searcher import Searcher
from tests.support.memory_searcher import MemoryGraph, MemorySearcher
from tests.support.tom_and_priya import TOM_AND_PRIYA
from workers.bulk_import import BulkImporter
from workers.resources import get_redis

pytestmark = pytest.mark.e2e

QUERIES = [
    "Where does Tom live now?",
    "bird feeder for the sparrows",
    "What language is Tom learning?",
    "half marathon time",
]


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


def _vector(value: Any) -> list[float] | None:
    return None if value is None else [float(x) for x in value]


def copy_space(driver: neo4j.Driver, database: str, space: str) -> MemoryGraph:
    """The space's sources, episodes, concepts and propositions (and what supersedes what) as a `MemoryGraph`."""

    def rows(cypher: str) -> list[neo4j.Record]:
        return driver.execute_query(cypher, space=space, database_=database).records

    graph = MemoryGraph(space=space)
    for r in rows(
        "MATCH (e:Episode {space: $space})-[:PART_OF]->(s:Source) RETURN e, s.id AS source ORDER BY s.id, e.seq"
    ):
        e = r["e"]
        graph.add_episode(
            e["id"], e["text"], source=r["source"], speaker=e.get("speaker"), occurred_at=_native(e.get("occurred_at")),
            external_id=e.get("external_id"), recorded_at=_native(e.get("recorded_at")),
            embedding=_vector(e.get("embedding")),
        )  # fmt: skip
    for r in rows("MATCH (c:Concept {space: $space}) RETURN c ORDER BY c.id"):
        graph.add_concept(r["c"]["key"], concept_id=r["c"]["id"], embedding=_vector(r["c"].get("embedding")))
    propositions = rows(
        "MATCH (p:Proposition {space: $space}) OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode) WITH p, collect(e.id) AS"
        " proofs OPTIONAL MATCH (p)-[:MENTIONS]->(c:Concept) RETURN p, proofs, collect(c.key) AS keys ORDER BY p.id"
    )
    for r in propositions:
        p = r["p"]
        graph.add_proposition(
            p["id"], p["text"], proven_by=sorted(r["proofs"]), concepts=sorted(r["keys"]),
            confidence=p.get("confidence"), importance=p.get("importance"), valid_from=_native(p.get("valid_from")),
            recorded_at=_native(p.get("recorded_at")), embedding=_vector(p.get("embedding")),
        )  # fmt: skip
    for r in rows(
        "MATCH (new:Proposition {space: $space})-[s:SUPERSEDES]->(old) RETURN new.id AS new, old.id AS old,"
        " s.reason AS reason, s.carry AS carry, old.expired_at AS at"
    ):
        graph.supersede(r["new"], r["old"], r["reason"], _native(r["at"]), r["carry"])
    return graph


@pytest.fixture(scope="module")
def imported(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[str]:
    space = "test-searcher-contract"
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=space)
    importer = BulkImporter(
        driver, settings.neo4j.database, space, create_extractor(ExtractionSettings()), get_embedder().encode,
        get_redis(),
    )  # fmt: skip
    importer.run(validate_records([TOM_AND_PRIYA]))
    yield space
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=space)


@pytest.fixture(scope="module")
def copied(settings: EngramSettings, driver: neo4j.Driver, imported: str) -> MemoryGraph:
    return copy_space(driver, settings.neo4j.database, imported)


@pytest.fixture(scope="module")
def searchers(
    settings: EngramSettings, driver: neo4j.Driver, imported: str, copied: MemoryGraph
) -> tuple[Searcher, Searcher]:
    return GraphSearcher(driver, settings.neo4j.database, imported, None), MemorySearcher(copied)


def vector(text: str) -> list[float]:
    return [float(x) for x in get_embedder().encode([text])[0]]


def _ranked(hits: list[Any]) -> list[tuple[str, float]]:
    return [(h.id, round(h.score, 4)) for h in hits]


def test_the_copy_holds_the_space(copied: MemoryGraph) -> None:
    assert len(copied.episodes) == 8 and copied.propositions and copied.concepts


@pytest.mark.parametrize("label", ["propositions", "episodes"])
@pytest.mark.parametrize("query", QUERIES)
def test_dense_search_ranks_the_same_items_with_the_same_scores(
    searchers: tuple[Searcher, Searcher], label: Any, query: str
) -> None:
    real, memory = searchers
    assert _ranked(memory.dense(label, vector(query), 5)) == _ranked(real.dense(label, vector(query), 5))


def test_dense_search_of_one_speaker_keeps_to_them(searchers: tuple[Searcher, Searcher]) -> None:
    real, memory = searchers
    asked = vector("moving to a new city")
    assert _ranked(memory.dense("episodes", asked, 5, ["Tom"])) == _ranked(real.dense("episodes", asked, 5, ["Tom"]))


@pytest.mark.parametrize("lucene", ["madrid", "bird OR feeder", "portuguese"])
def test_full_text_search_finds_the_same_items(searchers: tuple[Searcher, Searcher], lucene: str) -> None:
    real, memory = searchers  # the scores differ by design (the analyser is close to Lucene's, not it)
    for label in ("propositions", "episodes"):
        assert {h.id for h in memory.fulltext(label, lucene, 10)} == {h.id for h in real.fulltext(label, lucene, 10)}


def test_concepts_by_key_and_nearest_concepts_agree(searchers: tuple[Searcher, Searcher], copied: MemoryGraph) -> None:
    real, memory = searchers
    keys = sorted(copied.keys)[:4]
    assert keys
    assert {c.id for c in memory.concepts_by_key(keys)} == {c.id for c in real.concepts_by_key(keys)}
    asked = vector("Madrid")
    near_memory = [(c.id, round(c.score, 4)) for c in memory.dense_concepts(asked, 5, 0.0)]
    assert near_memory == [(c.id, round(c.score, 4)) for c in real.dense_concepts(asked, 5, 0.0)]


def test_versions_agree(searchers: tuple[Searcher, Searcher], copied: MemoryGraph) -> None:
    real, memory = searchers
    ids = sorted(copied.propositions)

    def by_id(rows: list[dict[str, Any]]) -> list[str]:
        return sorted(str(row.get("id")) for row in rows)

    assert by_id(memory.current_versions(ids)) == by_id(real.current_versions(ids))
    assert by_id(memory.earlier_versions(ids)) == by_id(real.earlier_versions(ids))
