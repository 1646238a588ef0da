"""`engram recall` end to end, through the API with the space's key: the fact and its proof are printed; bad input is
a clear error before any request."""

from __future__ import annotations

import json
from typing import Any

import neo4j

from tests.e2e.api.conftest import issue_key
from tests.support.cli import engram
from tests.support.jobs import ingest


def test_recall_prints_the_fact_and_its_provenance(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    key = issue_key(driver, space)
    question = "When did Caroline go to the LGBTQ support group?"
    found = engram("recall", question, "--space", space, "--json", key=key)
    assert found.returncode == 0, found.stdout + found.stderr
    best = json.loads(found.stdout)["items"][:3]  # the table wraps long cells on an 80-column pipe: read the JSON
    assert any("7 May 2023" in i["text"] and "D1:3" in [p["externalId"] for p in i["provenance"]] for i in best), best
    done = engram("recall", question, "--space", space, "--trace", key=key)
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    assert "D1:3" in flat
    assert "seed" in flat and "MATCH (n) WHERE n.space" in flat
    # The Browser query is printed as it runs: rich markup once ate its relationship pattern ("(n)-->(m)").
    assert "-[r:PROVEN_BY|MENTIONS|SOLVES|PART_OF]->(m)" in flat
    mine = engram("recall", "When did I go to the support group?", "--asker", "Caroline", "--trace", key=key)
    assert mine.returncode == 0, mine.stderr
    assert "'meant': ['Caroline']" in " ".join(mine.stdout.split())
    dated = engram("recall", "What did Caroline do two weeks ago?", "--now", "2023-05-22", "--trace", key=key)
    assert dated.returncode == 0, dated.stderr
    assert "'days': [{'from': '2023-05-05', 'to': '2023-05-11'}]" in " ".join(dated.stdout.split())  # around 8 May


def test_recall_rejects_bad_input() -> None:
    bad_space = engram("recall", "anything", "--space", "Not A Space")
    assert bad_space.returncode == 2 and "invalid space name" in bad_space.stdout
    too_long = engram("recall", "x" * 2001, "--space", "some-space")
    flat = " ".join(too_long.stdout.split())
    assert too_long.returncode == 2 and "query must be at most 2000 characters, got 2001" in flat
    no_asker = engram("recall", "What is my cat called?", "--space", "some-space", "--asker", "")
    assert no_asker.returncode == 2 and "asker must contain at least one non-space" in " ".join(no_asker.stdout.split())
    no_time = engram("recall", "What did I do?", "--space", "some-space", "--now", "two weeks ago")
    assert no_time.returncode == 2 and "--now" in no_time.stdout + no_time.stderr
