"""`engram associate` end to end, through the API with the space's key: the memory a remark touches is printed with
why it came up, a remark memory has nothing on prints the reason, and bad input is a clear error before any request."""

from __future__ import annotations

import json

import neo4j

from engram.scope import memory_space
from tests.e2e.api.conftest import issue_key
from tests.e2e.api.test_associate import LATER_WEDNESDAY, MIA, UNRELATED, WEDNESDAY_AGAIN
from tests.support.cli import engram
from tests.support.jobs import ingest


def test_associate_prints_what_a_remark_brings_up_and_why(driver: neo4j.Driver, space: str) -> None:
    ingest(memory_space(space, "mia"), [MIA])  # as the API files a user's records
    key = issue_key(driver, space)
    mine = ("--user", "mia", "--speaker", "Mia", "--now", LATER_WEDNESDAY)
    found = engram("associate", WEDNESDAY_AGAIN, *mine, "--space", space, "--json", key=key)
    assert found.returncode == 0, found.stdout + found.stderr
    answer = json.loads(found.stdout)
    best = answer["associations"][0]
    assert "clear-the-fridge" in best["item"]["text"], answer
    assert "TIME" in [path["kind"] for path in best["why"]], best["why"]
    table = engram("associate", WEDNESDAY_AGAIN, *mine, "--trace", key=key)
    assert table.returncode == 0, table.stderr
    flat = " ".join(table.stdout.split())
    assert "time: Wednesday" in flat and "recurring" in flat  # the path, and the trace's step
    nothing = engram("associate", UNRELATED, *mine, key=key)
    assert nothing.returncode == 0, nothing.stderr
    assert "nothing (" in nothing.stdout and "bears on this utterance" in " ".join(nothing.stdout.split())
    theirs = engram("associate", WEDNESDAY_AGAIN, "--user", "leo", "--now", LATER_WEDNESDAY, "--json", key=key)
    assert theirs.returncode == 0 and json.loads(theirs.stdout)["associations"] == []  # Mia's habit is not Leo's


def test_associate_rejects_bad_input() -> None:
    empty = engram("associate", "  ", "--space", "some-space")
    assert empty.returncode == 2 and "utterance must contain at least one non-space" in " ".join(empty.stdout.split())
    too_long = engram("associate", "x" * 2001, "--space", "some-space")
    assert too_long.returncode == 2 and "at most 2000 characters" in " ".join(too_long.stdout.split())
    no_speaker = engram("associate", "Wednesday again", "--space", "some-space", "--speaker", "")
    flat = " ".join(no_speaker.stdout.split())
    assert no_speaker.returncode == 2 and "speaker must contain at least one non-space" in flat
    over = engram("associate", "Wednesday again", "--space", "some-space", "--limit", "51")
    assert over.returncode == 2 and "limit must be between 1 and 50, got 51" in over.stdout
    no_time = engram("associate", "Wednesday again", "--space", "some-space", "--now", "tonight")
    assert no_time.returncode == 2 and "--now" in no_time.stdout + no_time.stderr
