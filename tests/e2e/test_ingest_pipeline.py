"""Episodes in, provenance-backed knowledge out: through the real worker into the real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import neo4j
import numpy as np
import pytest

from engram.embedding import get_embedder
from tests.support.graph_queries import association_errors, label_counts, relationship_counts, rows
from tests.support.jobs import ingest


def test_conversation_becomes_episodes_propositions_and_concepts(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    status = ingest(space, [conversation])
    assert status.stages_done == ["standardize", "extract", "embed", "write", "consolidate"]
    counts = label_counts(driver, space)
    assert counts["Source"] == 2 and counts["Episode"] == 6 and counts["Space"] == 1
    assert counts["Proposition"] == status.counts["propositions"] >= 5

    episodes = rows(driver, "MATCH (e:Episode {space: $s}) RETURN e.external_id AS id ORDER BY id", s=space)
    assert [e["id"] for e in episodes] == ["D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2"]

    (support,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s})-[:PROVEN_BY]->(e:Episode) WHERE p.text CONTAINS 'support group' "
        "RETURN p.text AS text, p.valid_from AS valid_from, collect(e.external_id) AS episodes, "
        "size(p.embedding) AS dims, [(p)-[:MENTIONS]->(c) | c.key] AS concepts",
        s=space,
    )
    assert support["text"] == "Caroline went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful."
    assert support["valid_from"].to_native() == datetime(2023, 5, 7, tzinfo=UTC)
    assert support["episodes"] == ["D1:3"] and support["dims"] == 384
    assert "lgbtq support group" in support["concepts"] and "caroline" in support["concepts"]

    race = rows(
        driver, "MATCH (p:Proposition {space: $s}) WHERE p.text CONTAINS 'charity race' RETURN p.text AS t", s=space
    )
    assert race == [{"t": "Melanie ran a charity race for mental health last Saturday (20 May 2023)."}]

    # Every proposition is proven by an episode and every concept is mentioned (no orphans).
    assert rows(driver, "MATCH (p:Proposition {space: $s}) WHERE NOT (p)-[:PROVEN_BY]->() RETURN p", s=space) == []
    assert rows(driver, "MATCH (c:Concept {space: $s}) WHERE NOT ()-[:MENTIONS]->(c) RETURN c", s=space) == []
    rels = relationship_counts(driver, space)
    assert rels["NEXT"] == 4 and rels["PART_OF"] == 6 and rels["ASSOCIATED"] > 0
    assert association_errors(driver, space) == (0, 0)
    (caroline,) = rows(
        driver, "MATCH (c:Concept {space: $s, key: 'caroline'}) RETURN c.df AS df, c.idf AS idf", s=space
    )
    assert caroline["df"] >= 2 and caroline["idf"] > 0


def test_stored_embeddings_are_the_embedders_vectors(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    """Vectors travel as VectorParam (graph/params.py): what lands in Neo4j must be the model's vector itself."""
    ingest(space, [conversation])
    stored = rows(
        driver,
        "MATCH (n {space: $s}) WHERE (n:Proposition OR n:Concept) AND n.embedding IS NOT NULL "
        "RETURN coalesce(n.text, n.name) AS text, n.embedding AS embedding ORDER BY text",
        s=space,
    )
    assert len(stored) >= 10
    expected = get_embedder().encode([r["text"] for r in stored])
    np.testing.assert_allclose(np.array([r["embedding"] for r in stored]), expected, atol=1e-5)


def test_redelivered_job_changes_nothing(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> None:
    ingest(space, [conversation])
    before = (label_counts(driver, space), relationship_counts(driver, space))
    associations = (
        "MATCH (a {space: $s})-[r:ASSOCIATED]->(b) "
        "RETURN a.id AS a, b.id AS b, r.count AS n, a.idf AS idf_a, b.idf AS idf_b ORDER BY a, b"
    )
    before_associations = rows(driver, associations, s=space)
    ingest(space, [conversation])
    assert (label_counts(driver, space), relationship_counts(driver, space)) == before
    after_associations = rows(driver, associations, s=space)
    assert [(r["a"], r["b"], r["n"]) for r in after_associations] == [
        (r["a"], r["b"], r["n"]) for r in before_associations
    ]
    idfs = [idf for r in after_associations for idf in (r["idf_a"], r["idf_b"])]
    assert idfs == pytest.approx([idf for r in before_associations for idf in (r["idf_a"], r["idf_b"])])


def test_same_statement_in_two_episodes_is_one_proposition_with_two_proofs(driver: neo4j.Driver, space: str) -> None:
    turns = [
        {"speaker": "Ann", "text": "Ann's favourite city is Lisbon in Portugal."},
        {"speaker": "Bob", "text": "Nice."},
        {"speaker": "Ann", "text": "Ann's favourite city is Lisbon in Portugal."},
    ]
    ingest(space, [{"type": "conversation", "id": "c", "sessions": [{"id": "s", "turns": turns}]}])
    found = rows(
        driver,
        "MATCH (p:Proposition {space: $s})-[:PROVEN_BY]->(e) WHERE p.text CONTAINS 'Lisbon' "
        "RETURN p.id AS id, count(e) AS n",
        s=space,
    )
    assert len(found) == 1 and found[0]["n"] == 2


def test_speaker_names_with_backslashes_are_taken_literally(driver: neo4j.Driver, space: str) -> None:
    # First-person references become the speaker's name through regular-expression substitutions: a name such as
    # `A\1` or `\g<0>` read as a replacement template failed the whole job (or spliced in the matched text).
    turns = [
        {"speaker": "A\\1", "text": "I started a pottery class and my teacher is great."},
        {"speaker": "\\g<0>", "text": "I love your bowls, you are so talented!"},
    ]
    ingest(space, [{"type": "conversation", "id": "c", "sessions": [{"id": "s", "turns": turns}]}])
    texts = [r["text"] for r in rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.text AS text", s=space)]
    assert any(t.startswith("A\\1 started a pottery class") for t in texts), texts
    assert any("\\g<0> loves A\\1's bowls" in t for t in texts), texts


def test_documents_become_passages_and_facts(driver: neo4j.Driver, space: str, document: dict[str, Any]) -> None:
    ingest(space, [document])
    passages = rows(driver, "MATCH (e:Episode {space: $s}) RETURN e.text AS text ORDER BY e.seq", s=space)
    assert len(passages) == 1  # two short paragraphs pack into one passage
    texts = {r["t"] for r in rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.text AS t", s=space)}
    assert "The on-call engineer restarts the ingestion worker after every deploy." in texts


def test_a_document_s_propositions_name_its_subject_where_it_said_it(driver: neo4j.Driver, space: str) -> None:
    # The next hop of a question ("the band that recorded X") needs the entity, not "It" or "The band".
    text = "Arctic Monkeys are an English rock band formed in Sheffield. The band released AM in 2013.\n\n"
    text += "Their drummer is Matt Helders. It is believed that they rehearsed in a garage."
    ingest(space, [{"type": "document", "id": "wiki-am", "title": "Arctic Monkeys (band)", "text": text}])
    found = rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.text AS t, p.subject AS subject", s=space)
    texts = {r["t"] for r in found}
    assert "Arctic Monkeys released AM in 2013." in texts, texts
    assert {r["subject"] for r in found if r["t"] == "Arctic Monkeys released AM in 2013."} == {"Arctic Monkeys"}
    assert "Arctic Monkeys' drummer is Matt Helders." in texts, texts
    assert "It is believed that they rehearsed in a garage." in texts, texts  # no referent: left alone


def test_a_document_passage_is_read_under_its_title(driver: neo4j.Driver, space: str) -> None:
    # Searching passages must find a paragraph by the entity it is about, which the passage may never name.
    text = "It was founded in 1910 and moved twice. Its collection holds 2,000 paintings."
    ingest(space, [{"type": "document", "id": "wiki-m", "title": "Alfercam Museum", "text": text}])
    (episode,) = rows(driver, "MATCH (e:Episode {space: $s}) RETURN e.text AS text", s=space)
    assert episode["text"] == f"Alfercam Museum\n{text}"


def test_a_trajectory_becomes_one_prescription_solving_its_task_with_its_segments_as_parts(
    driver: neo4j.Driver, space: str, trajectory: dict[str, Any]
) -> None:
    ingest(space, [trajectory])
    found = rows(
        driver,
        "MATCH (p:Prescription {space: $s})-[:SOLVES]->(i:Intent), (p)-[:PROVEN_BY]->(e:Episode) "
        "RETURN i.text AS intent, p.return_score AS score, p.steps AS steps, p.part_intents AS parts, "
        "p.part_ends AS ends, collect(e.external_id) AS episodes",
        s=space,
    )
    assert [f["intent"] for f in found] == ["prepare dinner"]
    (whole,) = found
    assert whole["steps"] == [s["action"] for s in trajectory["steps"]]
    assert whole["parts"] == ["find ingredients for pasta", "plan the holiday trip"] and whole["ends"] == [2, 4]
    assert sorted(whole["episodes"]) == ["step-0", "step-1", "step-2", "step-3"]
    assert whole["score"] > 5.5  # rewarded steps


def test_progress_is_recorded_per_stage(space: str, conversation: dict[str, Any]) -> None:
    status = ingest(space, [conversation])
    assert set(status.stage_seconds) == {"standardize", "extract", "embed", "write", "consolidate"}
    assert status.fraction == 1.0 and status.finished_at
