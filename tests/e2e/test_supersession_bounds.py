"""Supersession histories stay acyclic, and reading them costs what they hold, not how many paths they have.

A correction may make an old text current again (it gets ingestion's id for its text). Correcting back to a
statement the proposition already replaced would make the history a cycle, so it is refused. A history whose merges
share ancestors (a survivor replacing several statements that each replaced the same older one) has exponentially
many paths between its ends; the lineage, correction, consolidation and Browser queries take one shortest path per
pair of ends instead of enumerating them.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late
from typing import Any, TypeVar

import neo4j
import pytest

from app.cli.browser_command import exploration_queries
from engram.embedding import get_embedder
from graph.consolidation.correction import CorrectionCycle, PropositionNotCurrent, correct
from graph.consolidation.duplicates import carry_late_proofs
from graph.consolidation.lineage import lineage
from tests.support.graph_queries import rows
from tests.support.jobs import ingest

T = TypeVar("T")
CATS = {
    "type": "conversation",
    "id": "pets",
    "sessions": [{"id": "s1", "turns": [{"speaker": "Ann", "id": "t1", "text": "I have two cats at home."}]}],
}
# depth x (width parallel statements): t0 replaced m0_1..m0_w, each of which replaced t1, ... down to t<depth>:
# width ** depth paths from t0 to t<depth> through (width + 1) * depth + 1 propositions.
MANY_PATHS = """
UNWIND range(0, $depth) AS i
CREATE (:Proposition {space: $space, id: 'prop_t' + i, text: 'statement t' + i,
                      status: CASE i WHEN 0 THEN 'active' ELSE 'superseded' END})
WITH i WHERE i < $depth
UNWIND range(1, $width) AS j
CREATE (:Proposition {space: $space, id: 'prop_m' + i + '_' + j, text: 'statement m' + i + '_' + j,
                      status: 'superseded'})
"""
MANY_PATH_LINKS = """
UNWIND range(0, $depth - 1) AS i
UNWIND range(1, $width) AS j
MATCH (newer:Proposition {space: $space, id: 'prop_t' + i}),
      (mid:Proposition {space: $space, id: 'prop_m' + i + '_' + j}),
      (older:Proposition {space: $space, id: 'prop_t' + (i + 1)})
CREATE (newer)-[:SUPERSEDES {reason: 'merge'}]->(mid), (mid)-[:SUPERSEDES {reason: 'merge'}]->(older)
"""
DEADLINE_S = 5.0  # each bounded read; about 0.1 s each on a warm 2-core stack


def _within(driver: neo4j.Driver, space: str, call: Callable[[], T]) -> T:
    """`call()`, failing the test if it is still running after DEADLINE_S (its transactions are then terminated)."""
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(call)
        try:
            return future.result(timeout=DEADLINE_S)
        except Late:
            driver.execute_query(
                "SHOW TRANSACTIONS YIELD transactionId AS tx, parameters WHERE parameters.space = $target "
                "TERMINATE TRANSACTIONS tx YIELD message RETURN message",
                target=space,
            )
            pytest.fail(f"still running after {DEADLINE_S} s")


def test_correcting_back_to_a_replaced_statement_is_refused(driver: neo4j.Driver, space: str) -> None:
    ingest(space, [CATS])
    (original,) = rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.id AS id, p.text AS text", s=space)
    embed = get_embedder().encode
    dog = correct(space, original["id"], "Ann has two cats and a dog at home.", embed=embed)
    with pytest.raises(CorrectionCycle, match="already replaced") as refused:
        correct(space, dog.proposition_id, original["text"], embed=embed)
    assert refused.value.earlier_id == original["id"]
    cycles = "MATCH (p:Proposition {space: $s}) WHERE EXISTS { (p)-[:SUPERSEDES]->+(p) } RETURN p.id AS id"
    assert rows(driver, cycles, s=space) == []
    statuses = "MATCH (p:Proposition {space: $s}) RETURN p.id AS id, p.status AS status ORDER BY id"
    assert {r["id"]: r["status"] for r in rows(driver, statuses, s=space)} == {
        original["id"]: "superseded",
        dog.proposition_id: "active",
    }
    history = lineage(space, dog.proposition_id)
    assert history is not None and [s.id for s in history.replaced] == [original["id"]]


def test_histories_with_many_paths_are_read_in_bounded_time(driver: neo4j.Driver, space: str) -> None:
    depth, width = 10, 5  # 5 ** 10: about ten million paths from the newest statement to the oldest
    driver.execute_query(MANY_PATHS, space=space, depth=depth, width=width)
    driver.execute_query(MANY_PATH_LINKS, space=space, depth=depth, width=width)
    newest, oldest = "prop_t0", f"prop_t{depth}"

    whole = _within(driver, space, lambda: lineage(space, newest))
    assert whole is not None and len(whole.replaced) == depth * (width + 1)
    assert [s.id for s in whole.replaced[: width + 1]] == [
        *sorted(f"prop_m0_{j}" for j in range(1, width + 1)),
        "prop_t1",
    ]
    assert whole.replaced[-1].id == oldest and whole.replaced[-1].reason == "merge"
    last = _within(driver, space, lambda: lineage(space, oldest))
    assert last is not None and last.replaced == [] and last.current == newest
    embed = get_embedder().encode  # loading the model is not the query's time
    with pytest.raises(PropositionNotCurrent) as stale:
        _within(driver, space, lambda: correct(space, "prop_t1", "a new statement", embed=embed))
    assert stale.value.current_id == newest
    assert _within(driver, space, lambda: carry_late_proofs(driver, "neo4j", space)) == 0
    (history,) = [q for q in exploration_queries() if q.name == "superseded_history"]

    def browse() -> list[dict[str, Any]]:
        return rows(driver, history.text, space=space, fact="prop_t3")

    assert {r["text"] for r in _within(driver, space, browse)} >= {
        "statement t0",
        "statement t3",
        f"statement t{depth}",
    }
