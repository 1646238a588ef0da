"""`engram reextract` (app/cli/reextract_command.py) on the real stack: a memory whose knowledge an earlier version of
extraction drew (here: sentences, no facts) is drawn again from its stored episodes; a second run changes nothing."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from tests.support.cli import engram_here
from tests.support.jobs import ingest

pytestmark = pytest.mark.e2e

RECORD: dict[str, Any] = {
    "type": "conversation",
    "id": "lena-chat",
    "sessions": [
        {"id": "s1", "started_at": "2026-09-01T10:00:00Z",
         "turns": [{"speaker": "Lena", "id": "t1", "text": "I live in Porto and work at a bakery near the station."}]},
        {"id": "s2", "started_at": "2026-11-20T10:00:00Z",
         "turns": [{"speaker": "Lena", "id": "t2", "text": "Big news: I moved from Porto to Graz last month."}]},
    ],
}  # fmt: skip


def facts(driver: neo4j.Driver, space: str) -> list[tuple[str, str, str]]:
    records, _, _ = driver.execute_query(
        "MATCH (p:Proposition {space: $space}) RETURN p.text AS text, coalesce(p.slot, '') AS slot, p.status AS status"
        " ORDER BY text",
        space=space,
    )
    return [(r["text"], r["slot"], r["status"]) for r in records]


def test_an_older_memory_is_drawn_again_into_facts_and_a_second_run_changes_nothing(
    driver: neo4j.Driver, space: str
) -> None:
    ingest(space, [RECORD])
    drawn = facts(driver, space)
    assert ("Lena lives in Porto.", "home", "superseded") in drawn
    # As an earlier version left it: a sentence of two facts, no slots, the episodes drawn by another version.
    driver.execute_query(
        "MATCH (p:Proposition {space: $space}) SET p.slot = '', p.frame = ''"
        " WITH p LIMIT 1 MATCH (e:Episode {space: $space, external_id: 't1'})"
        " CREATE (old:Proposition {space: $space, id: 'prop-old', status: 'active',"
        "  text: 'Lena lives in Porto and work at a bakery near the station.'})-[:PROVEN_BY]->(e)"
        " WITH e MATCH (x:Episode {space: $space}) SET x.extracted_by = 'sentences-0'",
        space=space,
    )
    done = engram_here("reextract", "--space", space)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "drew" in done.stdout and "Proposition" not in done.stderr
    assert facts(driver, space) == drawn  # the sentence retired, the facts and their slots back
    again = engram_here("reextract", "--space", space)
    assert again.returncode == 0 and "the same knowledge as before" in again.stdout, again.stdout + again.stderr
    assert facts(driver, space) == drawn


def test_an_unknown_space_or_a_bad_name_is_refused_with_nothing_written(driver: neo4j.Driver, space: str) -> None:
    missing = engram_here("reextract", "--space", space)
    assert missing.returncode == 1 and "no memory space" in missing.stdout + missing.stderr
    bad = engram_here("reextract", "--space", "bad name!")
    assert bad.returncode == 2 and "error" in (bad.stdout + bad.stderr).lower()
    records, _, _ = driver.execute_query("MATCH (n {space: $space}) RETURN count(n) AS n", space=space)
    assert records[0]["n"] == 0
