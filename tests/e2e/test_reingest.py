"""Re-ingesting a record with edited text: what the old text alone said is retired, the new text's knowledge comes in,
and identical text changes nothing (through the real worker)."""

from __future__ import annotations

from typing import Any

import neo4j

from graph.consolidation.run import consolidate
from tests.support.graph_queries import association_errors, label_counts, relationship_counts, rows
from tests.support.jobs import ingest


def _chat(*texts: str) -> dict[str, Any]:
    turns = [{"id": f"t{n}", "speaker": "Mia", "text": text} for n, text in enumerate(texts)]
    return {"type": "conversation", "id": "c", "sessions": [{"id": "s", "turns": turns}]}


def _propositions(driver: neo4j.Driver, space: str) -> list[str]:
    return [r["t"] for r in rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.text AS t ORDER BY t", s=space)]


def _concept_keys(driver: neo4j.Driver, space: str) -> set[str]:
    return {r["k"] for r in rows(driver, "MATCH (c:Concept {space: $s}) RETURN c.key AS k", s=space)}


def test_edited_turn_retires_what_only_its_old_text_said(driver: neo4j.Driver, space: str) -> None:
    kept = "I moved to Lisbon in March and I love the light there."
    ingest(space, [_chat("I adopted a greyhound named Biscuit last week.", kept)])
    assert any("Biscuit" in t for t in _propositions(driver, space))
    assert "biscuit" in _concept_keys(driver, space)

    ingest(space, [_chat("I bought a red kayak for the summer trips.", kept)])
    texts = _propositions(driver, space)
    assert not any("Biscuit" in t or "greyhound" in t for t in texts), texts
    assert any("kayak" in t for t in texts), texts
    assert any("Lisbon" in t for t in texts), texts  # the unchanged turn keeps its knowledge
    keys = _concept_keys(driver, space)
    assert "biscuit" not in keys and "greyhound" not in keys, keys
    (turn,) = rows(driver, "MATCH (e:Episode {space: $s, external_id: 't0'}) RETURN e.text AS t", s=space)
    assert "kayak" in turn["t"]
    # every proposition proves from an episode whose text it came from; concepts' counts and associations recounted
    assert rows(driver, "MATCH (p:Proposition {space: $s}) WHERE NOT (p)-[:PROVEN_BY]->() RETURN p", s=space) == []
    assert rows(driver, "MATCH (c:Concept {space: $s}) WHERE NOT ()-[:MENTIONS]->(c) RETURN c", s=space) == []
    assert association_errors(driver, space) == (0, 0)
    stale_df = rows(
        driver,
        "MATCH (c:Concept {space: $s}) WHERE c.df <> COUNT { (c)<-[:MENTIONS]-(:Proposition {status: 'active'}) } "
        "RETURN c.key AS k",
        s=space,
    )
    assert stale_df == []

    before = (label_counts(driver, space), relationship_counts(driver, space), _propositions(driver, space))
    ingest(space, [_chat("I bought a red kayak for the summer trips.", kept)])  # identical: a no-op
    assert (label_counts(driver, space), relationship_counts(driver, space), _propositions(driver, space)) == before


def test_statement_also_said_elsewhere_keeps_its_other_proof(driver: neo4j.Driver, space: str) -> None:
    shared = "I adopted a greyhound named Biscuit last week."
    ingest(space, [_chat(shared, shared)])
    ingest(space, [_chat("I bought a red kayak for the summer trips.", shared)])
    proofs = rows(
        driver,
        "MATCH (p:Proposition {space: $s})-[:PROVEN_BY]->(e) WHERE p.text CONTAINS 'Biscuit' "
        "RETURN collect(e.external_id) AS episodes",
        s=space,
    )
    assert proofs == [{"episodes": ["t1"]}]


def test_shortened_document_loses_its_trailing_passages(driver: neo4j.Driver, space: str) -> None:
    first = " ".join(["Ada Lovelace wrote the first published algorithm for the Analytical Engine."] * 12)
    second = " ".join(["Charles Babbage designed the Difference Engine in London."] * 14)
    ingest(space, [{"type": "document", "id": "d", "title": "Engines", "text": f"{first}\n\n{second}"}])
    assert label_counts(driver, space)["Episode"] == 2
    assert any("Babbage" in t for t in _propositions(driver, space))

    ingest(space, [{"type": "document", "id": "d", "title": "Engines", "text": first}])
    assert label_counts(driver, space)["Episode"] == 1
    texts = _propositions(driver, space)
    assert not any("Babbage" in t for t in texts), texts
    assert any("Lovelace" in t for t in texts), texts
    assert association_errors(driver, space) == (0, 0)


def test_a_trajectory_whose_task_changed_solves_only_the_new_intent(driver: neo4j.Driver, space: str) -> None:
    """The same steps under a new task: its prescriptions (same ids) solve the new task's intent only, and the old
    intent, which nothing solves any more, is retired as a forget retires it."""
    steps = [
        {"observation": "kitchen", "action": "open the fridge"},
        {"observation": "fridge open", "action": "take tomatoes and basil", "reward": 1.0},
    ]
    ingest(space, [{"type": "trajectory", "id": "run", "task": "prepare dinner", "steps": steps}])
    ingest(space, [{"type": "trajectory", "id": "run", "task": "cook a pasta lunch for two", "steps": steps}])
    solved = "MATCH (p:Prescription {space: $s})-[:SOLVES]->(i:Intent) RETURN DISTINCT i.text AS intent"
    assert rows(driver, solved, s=space) == [{"intent": "cook a pasta lunch for two"}]
    intents = rows(driver, "MATCH (i:Intent {space: $s}) RETURN i.text AS intent", s=space)
    assert intents == [{"intent": "cook a pasta lunch for two"}]


def test_an_edited_survivor_gives_back_the_statement_merged_into_it(driver: neo4j.Driver, space: str) -> None:
    """Consolidation merged one conversation's statement into another's; the survivor's turn is then edited: the
    survivor goes (what it still has are proofs inherited from the merged statement, not its own) and the merged
    statement, whose own turn is unchanged, is current again."""
    sunsets = "painting sunsets over the lake"
    chats = {"a": _chat(f"I love {sunsets}.", "I live in Boston."), "b": _chat(f"I love {sunsets} so much!")}
    ingest(space, [{**chat, "id": name} for name, chat in chats.items()])
    consolidate(space)
    (merge,) = rows(
        driver,
        "MATCH (a:Proposition {space: $s})-[:SUPERSEDES {reason: 'merge'}]->(b) "
        "MATCH (a)-[r:PROVEN_BY]->(:Episode)-[:PART_OF]->(own:Source) WHERE r.inherited_from IS NULL "
        "RETURN a.id AS survivor, b.id AS merged, own.external_id AS source",
        s=space,
    )
    name = merge["source"].split("/")[0]
    edited = _chat("I bought a red kayak for the summer trips.", *(["I live in Boston."] if name == "a" else []))
    ingest(space, [{**edited, "id": name}])
    current = rows(
        driver,
        "MATCH (p:Proposition {space: $s, status: 'active'}) WHERE p.text CONTAINS 'sunsets' RETURN p.id AS id",
        s=space,
    )
    assert current == [{"id": merge["merged"]}]
    assert rows(driver, "MATCH (p:Proposition {space: $s, id: $id}) RETURN p", s=space, id=merge["survivor"]) == []
    assert association_errors(driver, space) == (0, 0)
