"""A tenant crowding the shared vector indexes with near-identical vectors cannot hide another tenant's nearest items.

Neo4j 5.26 cannot filter a vector index by space, so recall over-fetches from the shared index up to MAX_FETCH rows
(graph/recall/neo4j_searcher.py). Here one tenant holds more than MAX_FETCH vectors all closer to the query than
anything of the other tenant: every row of the capped window is the crowd's, and only an exact scan of the other space
finds its items. The nodes are written directly (no extraction or embedding): only the indexes' contents matter.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import neo4j
import numpy as np
import pytest

from graph.recall.config import SearchLimits
from graph.recall.neo4j_searcher import GraphSearcher
from tests.support.graph_queries import rows

EXACT_SCAN_MAX, MAX_FETCH = SearchLimits().exact_scan_max, SearchLimits().max_fetch

DIMS = 384
CROWD = MAX_FETCH + 300
PLANT = """
UNWIND range($first, $last) AS n
CALL (n) {
  WITH [x IN $center | x + (rand() - 0.5) * $spread] AS raw
  WITH raw, sqrt(reduce(s = 0.0, x IN raw | s + x * x)) AS norm
  RETURN [x IN raw | x / norm] AS vector
}
CREATE (p:Proposition {space: $space, id: $prefix + 'p' + n, text: 'statement ' + n, status: 'active',
                       confidence: 1.0, importance: 0.5, recorded_at: datetime(), embedding: vector})
CREATE (c:Concept {space: $space, id: $prefix + 'c' + n, key: $prefix + 'key ' + n, name: 'key ' + n,
                   idf: 1.0, df: 1, embedding: vector})
"""


def _unit(vector: np.ndarray) -> list[float]:
    return [float(x) for x in vector / np.linalg.norm(vector)]


def _plant(driver: neo4j.Driver, space: str, prefix: str, count: int, center: list[float], spread: float) -> None:
    for first in range(0, count, 2000):
        driver.execute_query(
            PLANT, space=space, prefix=prefix, first=first, last=min(first + 2000, count) - 1, center=center,
            spread=spread,
        )  # fmt: skip


@pytest.fixture(scope="module")
def crowded(driver: neo4j.Driver) -> Iterator[tuple[list[float], str]]:
    """The query vector, the crowd's space: CROWD propositions and concepts within ~0.999 cosine of the query."""
    query = _unit(np.random.default_rng(7).standard_normal(DIMS))
    crowd = f"test-crowd-{uuid.uuid4().hex[:12]}"
    try:
        _plant(driver, crowd, "crowd-", CROWD, query, 1e-4)
        yield query, crowd
    finally:
        with driver.session() as session:  # batched deletes run only in an auto-commit transaction
            session.run(
                "MATCH (n {space: $crowd}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS", crowd=crowd
            ).consume()


def _near(query: list[float], seed: int) -> list[float]:
    """A vector about 0.95 cosine from the query: near, but farther than every vector of the crowd."""
    noise = np.random.default_rng(seed).standard_normal(DIMS)
    return _unit(np.array(query) + 0.33 * noise / np.linalg.norm(noise))


def test_small_space_finds_its_nearest_concepts_beside_a_crowd(
    driver: neo4j.Driver, space: str, crowded: tuple[list[float], str]
) -> None:
    query, _ = crowded
    for n in range(3):
        driver.execute_query(
            "CREATE (:Concept {space: $space, id: 'mine' + $n, key: 'mine ' + $n, name: 'mine', idf: 1.0, df: 1, "
            "embedding: $vector})",
            space=space, n=n, vector=_near(query, n),
        )  # fmt: skip
    searcher = GraphSearcher(driver, "neo4j", space, as_of=None)
    hits = searcher.dense_concepts(query, k=3, min_score=0.5)
    assert sorted(h.id for h in hits) == ["mine0", "mine1", "mine2"]


def test_mid_sized_space_finds_its_nearest_propositions_beside_a_crowd(
    driver: neo4j.Driver, space: str, crowded: tuple[list[float], str]
) -> None:
    """A space just past the exact-scan size is searched through the shared index."""
    query, _ = crowded
    far = _unit(-np.array(query))  # the space's bulk lies far from the query
    _plant(driver, space, "bulk-", EXACT_SCAN_MAX + 100, far, 2.0)
    for n in range(3):
        driver.execute_query(
            "CREATE (:Proposition {space: $space, id: 'target' + $n, text: 'target', status: 'active', "
            "confidence: 1.0, importance: 0.5, recorded_at: datetime(), embedding: $vector})",
            space=space, n=n, vector=_near(query, 10 + n),
        )  # fmt: skip
    assert rows(driver, "MATCH (p:Proposition {space: $s}) RETURN count(p) AS n", s=space)[0]["n"] > EXACT_SCAN_MAX
    searcher = GraphSearcher(driver, "neo4j", space, as_of=None)
    hits = searcher.dense("propositions", query, k=3)
    assert sorted(h.id for h in hits) == ["target0", "target1", "target2"]
