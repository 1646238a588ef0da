"""`engram profile` against the stack's API (a subprocess with a space's key, as an app developer runs it): Lena's
slots as a table by default (home: Graz now, Porto before), the API's answer with --json, one subject, an empty
profile for a user memory knows nothing of, and a blank user refused before anything is sent."""

from __future__ import annotations

import json

import neo4j
import pytest

from tests.e2e.api.conftest import issue_key
from tests.support.cli import engram

TURNS = [
    ("porto", "2025-03-01T10:00:00", "I live in Porto and work at a bakery near the station."),
    ("graz", "2025-09-10T10:00:00", "Big news: I moved from Porto to Graz last month, and I started at a "
                                          "shipping firm there."),
]  # fmt: skip


@pytest.fixture()
def key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)


def ok(*args: str, key: str) -> str:
    done = engram(*args, key=key, timeout_s=900)  # a job waits its turn on a busy worker
    assert done.returncode == 0, f"engram {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def test_engram_profile_prints_each_slot_now_and_before(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the table's rows on one line each
    for turn_id, at, text in TURNS:
        ok("remember", text, "--user", "lena", "--id", turn_id, "--at", at, "--session", turn_id, "--wait", key=key)

    answer = json.loads(ok("profile", "--user", "lena", "--json", key=key))
    slots = {s["slot"]: s for s in answer["subjects"][0]["slots"]}
    assert slots["home"]["current"]["value"] == "Graz"
    assert "Porto" in [f["value"] for f in slots["home"]["history"]]

    table = engram("profile", "--user", "lena", key=key, timeout_s=120)
    assert table.returncode == 0, table.stdout + table.stderr
    home = next(line for line in table.stdout.splitlines() if "│ home" in line)
    assert all(part in home for part in ("Graz", "2025-08-01", "graz (lena, 2025-09-10)", "Porto")), table.stdout
    assert "in user 'lena'" in table.stdout

    one = json.loads(ok("profile", "--user", "lena", "--subject", "LENA", "--json", key=key))
    assert [s["subject"].lower() for s in one["subjects"]] == ["lena"]
    nobody = engram("profile", "--user", "nobody", key=key, timeout_s=120)
    assert nobody.returncode == 0 and "no facts in the profile of user 'nobody'" in nobody.stdout

    blank = engram("profile", "--user", " ", key=key, timeout_s=120)
    assert blank.returncode == 2 and "--user: should have at least 1 character" in blank.stdout
    long = engram("profile", "--user", "x" * 201, key=key, timeout_s=120)
    assert long.returncode == 1 and "user: at most 200 characters, got 201" in long.stdout
    assert "profile" in engram("--help").stdout
