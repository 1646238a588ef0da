"""Consolidation against the real graph: duplicates, updates, conflicts, aliases, intents, associations, GDS,
corrections, idempotency, and consolidation while ingestion runs."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from engram.formats.loading import validate_records
from graph.cascade_delete import Forgetter
from graph.consolidation.correction import (
    InvalidCorrection,
    PropositionNotCurrent,
    UnknownProposition,
    correct,
)
from graph.consolidation.duplicates import OfflineJudge, load_active, plan_duplicates
from graph.consolidation.lineage import lineage
from graph.consolidation.run import consolidate
from graph.navigation import Navigator
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from graph.recall.neo4j_searcher import GraphSearcher
from tests.support.cli import engram
from tests.support.graph_queries import association_errors, rows
from tests.support.jobs import ingest, wait_for_job
from workers.celery_app import app
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.tasks.consolidate import submit_consolidation
from workers.tasks.ingest import submit_ingest


def turn(speaker: str, tid: str, text: str) -> dict[str, Any]:
    return {"speaker": speaker, "id": tid, "text": text}


def chat(cid: str, *sessions: tuple[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {
        "type": "conversation",
        "id": cid,
        "sessions": [{"id": f"s{i}", "started_at": at, "turns": turns} for i, (at, turns) in enumerate(sessions, 1)],
    }


MEMORIES = chat(
    "ann-and-bob",
    (
        "2023-05-08T10:00:00Z",
        [
            turn("Ann", "t1", "I love painting sunsets over the lake."),
            turn("Bob", "t2", "That sounds lovely."),
            turn("Ann", "t3", "I live in Boston with my partner."),
            turn("Ann", "t4", "I have two cats at home."),
            turn("Bob", "t5", "My mom is a nurse."),
        ],
    ),
    (
        "2023-07-20T10:00:00Z",
        [
            turn("Ann", "t6", "I love painting sunsets over the lake so much!"),
            turn("Ann", "t7", "I moved to Denver in June."),
            turn("Ann", "t8", "I have three cats at home."),
            turn("Bob", "t9", "My mother visited New York City again."),
        ],
    ),
)


@pytest.fixture(scope="module")
def engine() -> RecallEngine:
    from graph.driver import get_driver

    embedder = get_embedder()
    return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens)


def prop(driver: neo4j.Driver, space: str, text: str) -> dict[str, Any]:
    (row,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s}) WHERE p.text = $t "
        "RETURN p.id AS id, p.status AS status, p.valid_from AS valid_from, p.valid_to AS valid_to, "
        "p.expired_at AS expired_at, [(p)-[:PROVEN_BY]->(e) | e.external_id] AS proofs",
        s=space,
        t=text,
    )
    return row


def snapshot(driver: neo4j.Driver, space: str) -> dict[str, Any]:
    """Everything consolidation decides, as comparable values."""
    queries = {
        "propositions": "MATCH (p:Proposition {space: $s}) RETURN p.id, p.status, p.valid_to, p.superseded_by",
        "supersedes": "MATCH (a {space: $s})-[r:SUPERSEDES]->(b) RETURN a.id, b.id, r.reason",
        "proofs": "MATCH (p:Proposition {space: $s})-[r:PROVEN_BY]->(e) RETURN p.id, e.id, r.inherited_from",
        "mentions": "MATCH (p:Proposition {space: $s})-[:MENTIONS]->(c) RETURN p.id, c.id",
        "aliases": "MATCH (a:Concept {space: $s})-[r:SAME_AS]->(b) RETURN a.id, b.id, r.reason",
        "associations": "MATCH (a:Concept {space: $s})-[r:ASSOCIATED]->(b) RETURN a.id, b.id, r.count, r.weight",
        "concepts": "MATCH (c:Concept {space: $s}) RETURN c.id, c.df, c.idf",
        "intents": "MATCH (i:Intent {space: $s}) RETURN i.id, i.status, [(p)-[:SOLVES]->(i) | p.id]",
    }
    return {
        name: sorted(json.dumps(list(r.values()), default=str, sort_keys=True) for r in rows(driver, q, s=space))
        for name, q in queries.items()
    }


def test_duplicates_updates_and_conflicts_are_superseded_not_deleted(
    driver: neo4j.Driver, engine: RecallEngine, space: str
) -> None:
    job = ingest(space, [MEMORIES])
    # The updated value (two cats, then three) and the move (Boston, then Denver: the home slot) are facts the ingest
    # job itself links (docs/supersession.md, "Facts"): consolidation finds them done and decides the restatement.
    assert job.counts["facts_revised"] == 2
    total = rows(driver, "MATCH (p:Proposition {space: $s}) RETURN count(p) AS n", s=space)[0]["n"]
    before_run = datetime.now(UTC)
    time.sleep(0.05)
    report = consolidate(space)

    assert report.before.superseded_propositions == 2 and report.facts_revised == 0
    assert report.duplicates_merged == 1 and report.facts_updated == 0 and report.duplicates_found == 1
    assert report.conflicts_found == 0 and report.conflicts_resolved == 0
    assert report.before.active_propositions - report.after.active_propositions == 1
    assert report.after.superseded_propositions == 3 and report.after.supersedes_edges == 3
    assert rows(driver, "MATCH (p:Proposition {space: $s}) RETURN count(p) AS n", s=space)[0]["n"] == total

    # Restated: the better supported (here: the longer) statement stands for both and carries both proofs.
    merged_text = "Ann loves painting sunsets over the lake."
    merged = prop(driver, space, merged_text)
    survivor = prop(driver, space, "Ann loves painting sunsets over the lake so much!")
    assert merged["status"] == "superseded" and merged["expired_at"] is not None and merged["valid_to"] is None
    assert survivor["status"] == "active" and sorted(survivor["proofs"]) == ["t1", "t6"]
    (link,) = rows(
        driver,
        "MATCH (a {space: $s, id: $a})-[r:SUPERSEDES]->(b {id: $b}) RETURN r.reason AS reason, r.similarity AS sim",
        s=space,
        a=survivor["id"],
        b=merged["id"],
    )
    assert link["reason"] == "merge" and link["sim"] >= 0.88

    # Updated value: the newer one wins; the older one's validity ends when the new one starts.
    old, new = prop(driver, space, "Ann has two cats at home."), prop(driver, space, "Ann has three cats at home.")
    assert old["status"] == "superseded" and new["status"] == "active"
    assert old["valid_to"] == new["valid_from"]

    # Conflict: Denver (newer) wins over Boston; Denver does not inherit Boston's proof.
    boston, denver = (
        prop(driver, space, "Ann lives in Boston with Ann's partner."),
        prop(driver, space, "Ann moved to Denver in June."),
    )
    assert boston["status"] == "superseded" and boston["valid_to"] is not None and boston["expired_at"] is not None
    assert denver["status"] == "active" and denver["proofs"] == ["t7"]

    # Lineage is queryable from either end.
    history = lineage(space, survivor["id"])
    assert history is not None and history.current == survivor["id"]
    assert [(s.id, s.reason) for s in history.replaced] == [(merged["id"], "merge")]
    back = lineage(space, boston["id"])
    assert back is not None and back.status == "superseded" and back.current == denver["id"]
    assert lineage(space, "prop_unknown") is None

    # The merged wording stays an access path: its exact vector finds the survivor with the merged statement's
    # own score (1.0, not the survivor's lower one). A revised value is found by its own words, marked superseded,
    # and recall puts its current version just above it (docs/supersession.md).
    embed = get_embedder().encode
    searcher = GraphSearcher(driver, "neo4j", space, None)
    hits = {h.id: h.score for h in searcher.dense("propositions", embed([merged_text])[0].tolist(), 5)}
    assert merged["id"] not in hits and hits[survivor["id"]] > 0.999
    hits = {h.id: h.score for h in searcher.dense("propositions", embed(["Ann has two cats at home."])[0].tolist(), 5)}
    assert hits[old["id"]] > 0.999 and new["id"] in hits
    cats = [
        i
        for i in engine.recall(RecallRequest(space=space, query="Ann has two cats at home.")).items
        if "cats" in i.text
    ]
    assert [i.id for i in cats[:2]] == [new["id"], old["id"]] and cats[1].superseded_by == new["id"]
    text_hits = [h.id for h in searcher.fulltext("propositions", "lake", 5)]
    assert text_hits == [survivor["id"]]  # both wordings match; one current proposition comes back

    # Recall answers with the current fact; the fact a change ended is still found by its words, marked, below it
    # (docs/supersession.md); as of before the run, the superseded claim is visible too.
    now = engine.recall(RecallRequest(space=space, query="Where does Ann live? Boston?"))
    homes = [item for item in now.items if "Boston" in item.text or "Denver" in item.text]
    assert "Denver" in homes[0].text and all(i.superseded_by == denver["id"] for i in homes if "Boston" in i.text)
    then = engine.recall(RecallRequest(space=space, query="Where does Ann live? Boston?", known_at=before_run))
    assert any("Boston" in item.text for item in then.items)


def test_a_second_run_changes_nothing(driver: neo4j.Driver, space: str, conversation: dict[str, Any]) -> None:
    ingest(space, [MEMORIES, conversation])
    first = consolidate(space)
    assert first.changed_knowledge
    state = snapshot(driver, space)
    second = consolidate(space)
    assert not second.changed_knowledge
    assert second.duplicates_found == second.conflicts_resolved == second.aliases_added == second.intents_merged == 0
    assert second.before == second.after
    assert snapshot(driver, space) == state


def test_associations_are_exact_after_ingest_forget_and_supersession(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    assert association_errors(driver, space) == (0, 0)
    # More propositions, some mentioning the first job's concepts: the job recounts only the pairs its
    # propositions mention, and that is enough for every count to be exact.
    ingest(space, [MEMORIES, chat("ann-again", ("2023-08-01T10:00:00Z", [turn("Ann", "t1", "I love painting.")]))])
    assert association_errors(driver, space) == (0, 0)
    (source,) = rows(
        driver, "MATCH (s:Source {space: $s}) WHERE s.external_id ENDS WITH 'chat-1/s2' RETURN s.id AS id", s=space
    )
    Forgetter(driver, "neo4j").forget_sources(space, [source["id"]])
    assert association_errors(driver, space) == (0, 0)
    consolidate(space)
    assert association_errors(driver, space) == (0, 0)
    (stats,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s, status: 'active'}) WITH count(p) AS total "
        "MATCH (c:Concept {space: $s}) "
        "WITH c, total, COUNT { (c)<-[:MENTIONS]-(p:Proposition) WHERE p.status = 'active' } AS df "
        "WITH c, df, CASE WHEN df > 0 THEN log(toFloat(total + 1) / df) END AS idf "
        "RETURN count(c) AS concepts, "
        "sum(CASE WHEN c.df = df AND coalesce(abs(c.idf - idf), 0.0) < 1e-9 AND (c.idf IS NULL) = (idf IS NULL) "
        "THEN 1 ELSE 0 END) AS exact",
        s=space,
    )
    assert stats["concepts"] > 0 and stats["exact"] == stats["concepts"]
    # Weights are co-mentions x idf x idf of both ends as they are now (computed where read, never stale).
    (hub,) = rows(
        driver,
        "MATCH (c:Concept {space: $s}) RETURN c.key AS key, c.idf AS idf, "
        "[(c)-[r:ASSOCIATED]-(n) | [n.key, r.count * n.idf]] AS links ORDER BY size(links) DESC, key LIMIT 1",
        s=space,
    )
    page = Navigator(driver, "neo4j", space).concept_page(hub["key"], first=100)
    expected = {key: count_x_idf * hub["idf"] for key, count_x_idf in hub["links"]}
    assert len(expected) > 1 and {a["key"]: a["weight"] for a in page.associated} == pytest.approx(expected)
    # Superseded propositions no longer count: the merged statement's concepts are counted once.
    (sunset,) = rows(driver, "MATCH (c:Concept {space: $s, key: 'painting sunset'}) RETURN c.df AS df", s=space)
    assert sunset["df"] == 1


def test_aliases_link_keys_and_recall_activates_them(driver: neo4j.Driver, space: str) -> None:
    ingest(space, [MEMORIES])
    report = consolidate(space)
    assert report.aliases_added >= 1
    (alias,) = rows(
        driver,
        "MATCH (a:Concept {space: $s})-[r:SAME_AS]-(b:Concept) WHERE a.key = 'mom' "
        "RETURN b.key AS other, r.reason AS reason",
        s=space,
    )
    assert alias == {"other": "mother", "reason": "lexicon"}
    searcher = GraphSearcher(driver, "neo4j", space, None)
    assert {c.key for c in searcher.concepts_by_key(["mom"])} == {"mom", "mother"}
    assert {c.key for c in searcher.concepts_by_key(["lake"])} == {"lake"}


def test_near_duplicate_intents_merge_and_keep_their_prescriptions(driver: neo4j.Driver, space: str) -> None:
    runs = [
        {
            "type": "trajectory",
            "id": f"run-{i}",
            "task": task,
            "steps": [
                {"observation": "kitchen", "action": "boil water", "subgoal": task},
                {"observation": "pot", "action": "cook the pasta", "reward": 1.0},
            ],
        }
        for i, task in enumerate(["Prepare the pasta dinner", "prepare a pasta dinner!", "book a flight to Paris"])
    ]
    ingest(space, runs)
    assert len(rows(driver, "MATCH (i:Intent {space: $s}) RETURN i.id", s=space)) == 3
    report = consolidate(space)
    assert report.intents_merged == 1 and report.prescriptions_repointed == 1
    (merged,) = rows(
        driver,
        "MATCH (keep:Intent {space: $s})-[:SUPERSEDES]->(old:Intent) "
        "RETURN keep.text AS keep, old.status AS status, old.merged_into = keep.id AS points, "
        "COUNT { (:Prescription)-[:SOLVES]->(keep) } AS solutions, COUNT { ()-[:SOLVES]->(old) } AS left",
        s=space,
    )
    assert merged["status"] == "merged" and merged["points"] and merged["solutions"] == 2 and merged["left"] == 0
    # Ingesting the merged trajectory again re-attaches its prescription to the merged intent; the next run
    # moves it on to the canonical one.
    ingest(space, runs[:2])
    again = consolidate(space)
    assert again.intents_merged == 0
    assert rows(driver, "MATCH ()-[:SOLVES]->(i:Intent {space: $s, status: 'merged'}) RETURN i", s=space) == []


def test_dimensions_come_from_graph_data_science(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation, MEMORIES])
    report = consolidate(space)
    assert report.dimensions >= 1 and report.after.dimensions == report.dimensions
    (row,) = rows(
        driver,
        "MATCH (c:Concept {space: $s}) RETURN count(c) AS concepts, "
        "sum(count { (c)-[:IN]->(:Dimension) }) AS placed, max(c.importance) AS top",
        s=space,
    )
    assert row["top"] == pytest.approx(1.0) and 0 < row["placed"] <= row["concepts"]
    projections = rows(driver, "CALL gds.graph.list() YIELD graphName RETURN graphName")
    assert not [p for p in projections if space in p["graphName"]]  # the projection was dropped


def test_correct_supersedes_with_history_and_provenance(driver: neo4j.Driver, engine: RecallEngine, space: str) -> None:
    ingest(space, [MEMORIES])
    cats = prop(driver, space, "Ann has three cats at home.")
    embed = get_embedder().encode
    result = correct(space, cats["id"], "Ann has three cats and a dog at home.", embed=embed, reason="user said so")
    assert result.created and result.supersedes == cats["id"] and result.text.endswith("a dog at home.")
    # The correction itself proves it, not the turn t8 that proved the statement it replaced.
    proof = f"correction/{cats['id']}"
    found_proof = rows(driver, "MATCH (e:Episode {space: $s, external_id: $x}) RETURN e.id", s=space, x=proof)
    assert result.provenance == [found_proof[0]["e.id"]]
    assert "cat" in " ".join(result.concepts)
    old = prop(driver, space, "Ann has three cats at home.")
    assert old["status"] == "superseded" and old["valid_to"] is not None
    two_cats = prop(driver, space, "Ann has two cats at home.")  # revised by the three cats at ingest
    history = lineage(space, result.proposition_id)
    assert history is not None
    assert [(s.id, s.reason) for s in history.replaced] == [(cats["id"], "correction"), (two_cats["id"], "changed")]
    found = engine.recall(RecallRequest(space=space, query="How many pets does Ann have, a dog?"))
    assert found.items[0].id == result.proposition_id
    assert [p.external_id for p in found.items[0].provenance] == [f"correction/{cats['id']}"]
    # Again with the same text: nothing changes; with another text: the old one is no longer current.
    assert correct(space, cats["id"], "Ann has three cats and a dog at home.", embed=embed).created is False
    with pytest.raises(PropositionNotCurrent) as stale:
        correct(space, cats["id"], "Ann has four cats.", embed=embed)
    assert stale.value.current_id == result.proposition_id
    with pytest.raises(UnknownProposition):
        correct(space, "prop_does_not_exist", "anything", embed=embed)
    with pytest.raises(UnknownProposition):
        correct(f"{space}-other", result.proposition_id, "Ann has no pets.", embed=embed)  # another space
    with pytest.raises(InvalidCorrection):
        correct(space, result.proposition_id, "   ", embed=embed)
    # A correction is the most reliable source afterwards: consolidation keeps it current.
    consolidate(space)
    assert prop(driver, space, "Ann has three cats and a dog at home.")["status"] == "active"


RESTATED = chat(
    "again",
    (
        "2023-08-01T10:00:00Z",
        [
            turn("Ann", "r1", "I love painting sunsets over the lake."),  # the statement merged away earlier
            turn("Ann", "r2", "I have two cats at home."),  # the value updated earlier
            turn("Bob", "r3", "My mom is a nurse."),
            turn("Ann", "r4", "I love painting sunsets over the lake so much!"),
        ],
    ),
)


def test_consolidation_while_ingesting_keeps_every_invariant(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any], document: dict[str, Any]
) -> None:
    ingest(space, [MEMORIES])
    consolidate(space)
    seen_ids = {r["id"] for r in rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.id AS id", s=space)}
    jobs = [submit_ingest(space, validate_records([RESTATED, conversation, document]))]
    runs = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        consolidate(space)
        runs += 1
        if all(job_state(job) in (JobState.SUCCEEDED, JobState.FAILED) for job in jobs):
            break
    assert all(wait_for_job(job).state is JobState.SUCCEEDED for job in jobs)
    consolidate(space)  # the scheduled run after the ingest
    assert runs >= 1

    # Nothing lost: every proposition ever written is still there, every episode too.
    now_ids = {r["id"] for r in rows(driver, "MATCH (p:Proposition {space: $s}) RETURN p.id AS id", s=space)}
    assert seen_ids <= now_ids
    expected_turns = 9 + 4 + sum(len(s["turns"]) for s in conversation["sessions"])
    (episodes,) = rows(driver, "MATCH (e:Episode {space: $s}) RETURN count(e) AS n, count(DISTINCT e.id) AS d", s=space)
    assert episodes["n"] == episodes["d"] >= expected_turns
    # Provenance intact: every proof of a replaced statement is also a proof of what stands for it now, along links
    # that carry (a revision does not: the old turn does not prove the new value; carry_late_proofs.cypher's rule).
    lost = rows(
        driver,
        "MATCH (old:Proposition {space: $s, status: 'superseded'})-[:PROVEN_BY]->(e:Episode) "
        "MATCH (head:Proposition {status: 'active'})-[path:SUPERSEDES*1..10]->(old) "
        "WHERE all(r IN path WHERE coalesce(r.carry, r.reason IN ['merge', 'updated', 'correction'])) "
        "AND NOT (head)-[:PROVEN_BY]->(e) "
        "RETURN old.text AS text, e.external_id AS proof",
        s=space,
    )
    assert lost == []
    (r1,) = rows(
        driver,
        "MATCH (e:Episode {space: $s, external_id: 'r1'})<-[:PROVEN_BY]-(p:Proposition {status: 'active'}) "
        "RETURN p.text AS text",
        s=space,
    )
    assert r1["text"] == "Ann loves painting sunsets over the lake so much!"
    # Every superseded proposition says what replaced it; no active duplicates are left.
    orphans = rows(
        driver,
        "MATCH (p:Proposition {space: $s, status: 'superseded'}) WHERE NOT ()-[:SUPERSEDES]->(p) RETURN p.text",
        s=space,
    )
    assert orphans == []
    views, vectors = load_active(driver, "neo4j", space)
    assert plan_duplicates(views, vectors, OfflineJudge(), 0.88)[0] == []
    assert association_errors(driver, space) == (0, 0)


def job_state(job_id: str) -> JobState:
    return get_job_store().status(job_id).state


def test_celery_task_and_cli(space: str) -> None:
    ingest(space, [MEMORIES])
    result = app.AsyncResult(submit_consolidation(space)).get(timeout=300)
    assert result["skipped"] is False and result["report"]["duplicates_found"] == 1  # the cats revised at ingest
    cli = engram("consolidate", "--space", space, "--json")
    assert cli.returncode == 0, cli.stderr
    report = json.loads(cli.stdout)
    assert report["space"] == space and report["duplicates_found"] == 0
    assert report["after"]["superseded_propositions"] == 3
    bad = engram("consolidate", "--space", "Not A Space")
    assert bad.returncode == 2


def test_a_run_skips_while_another_holds_the_space(space: str) -> None:
    from workers.resources import get_redis
    from workers.tasks.consolidate import consolidate_locked

    lock = get_redis().lock(f"engram:consolidate:lock:{space}", timeout=60)
    assert lock.acquire(blocking=False)
    try:
        assert consolidate_locked(space).skipped
    finally:
        lock.release()
    outcome = consolidate_locked(space)
    assert not outcome.skipped and outcome.report is not None and outcome.report.space == space
