"""A forget leaves no trace of what it removed: no statement merged into a forgotten one, no dimension label or summary
naming a concept it deleted (the keys logs and caches in Redis: tests/e2e/api/test_api_redis.py)."""

from __future__ import annotations

from typing import Any

import neo4j

from graph.cascade_delete import Forgetter
from graph.consolidation.run import consolidate
from graph.dimensions import build_dimensions
from tests.support.graph_queries import association_errors, rows
from tests.support.jobs import ingest

SUNSETS = "painting sunsets over the lake"


def _chat(*texts: str) -> dict[str, Any]:
    turns = [{"id": f"t{n}", "speaker": "Ann", "text": text} for n, text in enumerate(texts)]
    return {"type": "conversation", "id": "c", "sessions": [{"id": "s", "turns": turns}]}


def _texts(driver: neo4j.Driver, space: str) -> list[str]:
    query = "MATCH (n {space: $s}) WHERE n:Proposition OR n:Episode RETURN n.text AS t"
    return [r["t"] for r in rows(driver, query, s=space)]


def test_forgetting_a_statement_takes_the_statements_merged_into_it(driver: neo4j.Driver, space: str) -> None:
    ingest(space, [_chat(f"I love {SUNSETS}.", f"I love {SUNSETS} so much!", "I live in Boston.")])
    consolidate(space)
    (merge,) = rows(
        driver,
        "MATCH (a:Proposition {space: $s})-[r:SUPERSEDES {reason: 'merge'}]->(b) "
        "RETURN a.id AS survivor, b.id AS merged",
        s=space,
    )
    Forgetter(driver, "neo4j").forget_knowledge(space, [merge["survivor"]])
    left = rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.id AS id, p.text AS t", s=space)
    assert merge["merged"] not in {r["id"] for r in left}, left
    assert not any(SUNSETS in r["t"] for r in left), left
    assert any("Boston" in r["t"] for r in left), left  # the rest stays
    assert association_errors(driver, space) == (0, 0)


def test_dimensions_no_longer_name_forgotten_concepts(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    build_dimensions(driver, "neo4j", space)
    named = "MATCH (d:Dimension {space: $s}) RETURN d.label AS label, d.summary AS summary"

    def keys_named() -> set[str]:
        found: set[str] = set()
        for row in rows(driver, named, s=space):
            found.update(row["label"].split(" / "))
            found.update(row["summary"].split(": ", 1)[1].split(", "))
        return found

    named_before = keys_named()
    before = {r["k"] for r in rows(driver, "MATCH (c:Concept {space: $s}) RETURN c.key AS k", s=space)}
    (session,) = rows(driver, "MATCH (s:Source {space: $s, external_id: 'chat-1/s2'}) RETURN s.id AS id", s=space)
    Forgetter(driver, "neo4j").forget_sources(space, [session["id"]])
    after = {r["k"] for r in rows(driver, "MATCH (c:Concept {space: $s}) RETURN c.key AS k", s=space)}
    removed = before - after
    assert removed & named_before, (removed, named_before)  # the forget deleted concepts the dimensions named
    assert keys_named() <= after, keys_named() - after
    counted = rows(
        driver,
        "MATCH (d:Dimension {space: $s}) RETURN d.summary AS summary, COUNT { (d)<-[:IN]-(:Concept) } AS members",
        s=space,
    )
    assert all(r["summary"].startswith(f"{r['members']} concepts: ") and r["members"] > 0 for r in counted), counted
    assert not any("adoption" in t or "charity race" in t for t in _texts(driver, space))


def test_forgetting_a_survivors_own_source_makes_the_statement_merged_into_it_current_again(
    driver: neo4j.Driver, space: str
) -> None:
    """Consolidation merged one source's statement into another source's: forgetting the survivor's source takes the
    survivor (its inherited proof is not its own: its wording came from the forgotten text), and the merged
    statement, whose own source stays, is current again with its concepts counted."""
    first, second = _chat(f"I love {SUNSETS}.", "I live in Boston."), _chat(f"I love {SUNSETS} so much!")
    ingest(space, [{**first, "id": "a"}, {**second, "id": "b"}])
    consolidate(space)
    (merge,) = rows(
        driver,
        "MATCH (a:Proposition {space: $s})-[:SUPERSEDES {reason: 'merge'}]->(b) "
        "MATCH (a)-[r:PROVEN_BY]->(:Episode)-[:PART_OF]->(own:Source) WHERE r.inherited_from IS NULL "
        "RETURN a.id AS survivor, a.text AS text, b.id AS merged, own.id AS source",
        s=space,
    )
    Forgetter(driver, "neo4j").forget_sources(space, [merge["source"]])
    current = rows(
        driver,
        "MATCH (p:Proposition {space: $s, status: 'active'}) WHERE p.text CONTAINS 'sunsets' RETURN p.id AS id",
        s=space,
    )
    assert current == [{"id": merge["merged"]}]
    assert merge["text"] not in _texts(driver, space)  # the forgotten wording is gone
    (restored,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s, id: $id}) "
        "RETURN p.superseded_by AS by, p.expired_at AS expired, COUNT { (p)<-[:SUPERSEDES]-() } AS replaced_by",
        s=space,
        id=merge["merged"],
    )
    assert restored == {"by": None, "expired": None, "replaced_by": 0}
    assert association_errors(driver, space) == (0, 0)
