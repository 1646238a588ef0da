"""The CLI as an app developer's client (subprocesses against the stack's running API, with a space's key in
ENGRAM_API_KEY): remember -> recall -> list -> export -> forget a user -> import -> the same recall; a wrong key, a key
of another space, no key, an unreachable API and bad input each exit non-zero with one clear line; `--help` puts the
client commands apart from the operator's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import neo4j
import pytest

from app.cli.client_options import MEMORY_PANEL, OPERATOR_PANEL
from engram.settings import PROJECT_ROOT
from tests.e2e.api.conftest import issue_key
from tests.support.cli import engram

BIKE = "I keep my red bike in the garden shed."
CELLO = "My cello lives in the hall cupboard next to the umbrellas."
WRONG_KEY = "egk_0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


@pytest.fixture()
def key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)


def ok(*args: str, key: str) -> str:
    done = engram(*args, key=key, timeout_s=900)  # a job waits its turn on a busy worker
    assert done.returncode == 0, f"engram {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def recalled(query: str, user: str, key: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(ok("recall", query, "--user", user, "--json", key=key))["items"]
    return items


def test_remember_recall_list_export_forget_import(key: str, space: str, tmp_path: Path) -> None:
    said = ok("remember", BIKE, "--user", "ana", "--id", "bike", "--metadata", "topic=home", "--wait", key=key)
    assert "remember/default" in said and "bike (ep_" in said and "1 episodes" in said
    ok("remember", CELLO, "--user", "bob", "--wait", "--space", space, key=key)  # --space: the key opens it

    before = recalled("Where is the bike kept?", "ana", key)
    assert "bike" in before[0]["text"] and not any("cello" in i["text"] for i in before)
    assert not any("bike" in i["text"] for i in recalled("Where is the bike kept?", "bob", key))
    table = ok("recall", "Where is the bike kept?", "--user", "ana", key=key)
    assert "garden shed" in " ".join(table.split()) and "user 'ana'" in table

    episodes = [json.loads(line) for line in ok("list", "--user", "ana", "--kind", "episode", "--json", key=key)
                .splitlines()]  # fmt: skip
    assert [(e["text"], e["origins"][0]["episodeExternalId"]) for e in episodes] == [(f"ana: {BIKE}", "bike")]
    sources = [json.loads(line) for line in ok("list", "sources", "--user", "ana", "--json", key=key).splitlines()]
    assert [s["externalId"] for s in sources] == ["remember/default"]
    assert ok("list", "users", key=key).split() == ["ana", "bob"]

    exported = tmp_path / "ana.jsonl"
    assert "exported 1 records" in ok("export", "--user", "ana", "--out", str(exported), key=key)
    records = [json.loads(line) for line in exported.read_text().splitlines()]
    assert [(r["id"], r["user"], r["sessions"][0]["turns"][0]["id"]) for r in records] == [("remember", "ana", "bike")]
    assert ok("export", "--user", "ana", key=key) == exported.read_text()  # stdout holds the JSONL alone

    asked = engram("forget", "--user", "ana", key=key)  # no --yes, no answer: nothing goes
    assert asked.returncode != 0 and recalled("Where is the bike kept?", "ana", key)
    assert "forgot the memory of user 'ana': 1 episodes" in ok("forget", "--user", "ana", "--yes", key=key)
    assert not any("bike" in i["text"] for i in recalled("Where is the bike kept?", "ana", key))
    assert ok("list", "sources", "--user", "ana", "--json", key=key) == ""

    imported = ok("import", str(exported), key=key)
    assert "1 job(s) finished" in imported and "imported 1 record(s): 1 sources, 1 episodes" in imported
    again = recalled("Where is the bike kept?", "ana", key)
    assert [i["id"] for i in again] == [i["id"] for i in before]  # the same memories, the same ids
    assert any("cello" in i["text"] for i in recalled("Where is the cello?", "bob", key))  # bob untouched

    # The app's own ids: forget the turn by the id given to remember.
    gone = ok("forget", "--episode", "bike", "--user", "ana", key=key)
    assert "1 episodes" in gone
    missing = engram("forget", "--episode", "bike", "--user", "ana", key=key)
    assert missing.returncode == 1 and "not found: bike" in missing.stdout


def test_import_sends_one_job_per_user(key: str, tmp_path: Path) -> None:
    lines = [
        {"type": "document", "id": f"note-{user}", "user": user, "text": f"{user.title()} parks the car on level {n}."}
        for n, user in enumerate(["kim", "lee", "kim"], start=2)
    ]
    lines[2]["id"] = "note-kim-2"
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    imported = ok("import", str(path), key=key)
    assert "2 record(s) for user 'kim'" in imported and "1 record(s) for user 'lee'" in imported
    assert "2 job(s) finished" in imported
    assert sorted(ok("list", "users", key=key).split()) == ["kim", "lee"]


def test_refusals_exit_non_zero_with_one_clear_line(key: str, space: str, tmp_path: Path) -> None:
    wrong = engram("recall", "hello", key=WRONG_KEY)
    assert wrong.returncode == 1 and "HTTP 401" in wrong.stdout and "Traceback" not in wrong.stdout + wrong.stderr
    other = engram("recall", "hello", "--space", "typo", key=key)
    assert other.returncode == 1 and f"opens the space {space!r}, not 'typo'" in other.stdout
    bad_name = engram("recall", "hello", "--space", "Not A Space", key=key)
    assert bad_name.returncode == 2 and "invalid space name" in bad_name.stdout
    env = {k: v for k, v in os.environ.items() if k != "ENGRAM_API_KEY"}
    exe = str(Path(sys.executable).parent / "engram")
    no_key = subprocess.run([exe, "recall", "hello"], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT)
    assert no_key.returncode == 2 and "no API key" in no_key.stdout
    away = engram("recall", "hello", "--url", "http://127.0.0.1:9", key=key)
    assert away.returncode == 1 and "cannot reach the API at http://127.0.0.1:9" in away.stdout

    empty = engram("export", "--user", "nobody", "--out", str(tmp_path / "none.jsonl"), key=key)
    assert empty.returncode == 1 and "nothing to export" in empty.stdout and not (tmp_path / "none.jsonl").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "document", "id": "d1", "text": "fine"}\n{"type": "document", "id": "d2", "txt": "x"}\n')
    refused = engram("import", str(bad), key=key)
    assert refused.returncode == 2 and "line-record 2 (id 'd2')" in " ".join(refused.stdout.split())
    blank = engram("remember", "   ", key=key)
    assert blank.returncode == 1 and "text: empty" in blank.stdout
    assert ok("list", "sources", "--json", key=key) == ""  # nothing of any of it was written
    nothing = engram("forget", key=key)
    assert nothing.returncode == 2 and "give --source" in nothing.stdout


def test_help_puts_the_client_commands_apart_from_the_operators() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "engram"), "--help"], capture_output=True, text=True, cwd=PROJECT_ROOT,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0
    memory, operator = done.stdout.index(MEMORY_PANEL), done.stdout.index(OPERATOR_PANEL)
    first, second = sorted([memory, operator])
    panels = {first: done.stdout[first:second], second: done.stdout[second:]}

    def commands(panel: str) -> set[str]:
        return {line.split()[1] for line in panel.splitlines()[1:] if line.startswith("│ ") and len(line.split()) > 1}

    assert {"remember", "recall", "associate", "forget", "list", "export", "import", "ingest"} <= commands(
        panels[memory]
    )
    assert {"up", "down", "doctor", "migrate", "keys", "consolidate", "schema", "browser"} <= commands(panels[operator])
    assert "--bulk" in engram("import", "--help").stdout
