"""Issue 59's papercuts, each as a newcomer meets it against the stack's running API: the API's address written
either way (base URL or its /graphql endpoint) by the CLI, the MCP stdio bridge and the Python client, and the URL
named when a call fails; `engram keys create` printing a line to paste; `python -m app.cli`; `GET /`; a quiet
`engram mcp`; `users` after an episode-level forget."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest
from engram_client import EngramClient
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from engram.settings import PROJECT_ROOT, EngramSettings
from tests.e2e.api.conftest import issue_key
from tests.e2e.mcp.agent_session import call, refused
from tests.support.cli import engram

UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens


@pytest.fixture()
def base(settings: EngramSettings) -> str:
    return f"http://{settings.api.host}:{settings.api.port}"


@pytest.fixture()
def key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)


def _ok(*args: str, key: str) -> str:
    done = engram(*args, key=key, timeout_s=600)
    assert done.returncode == 0, f"engram {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def test_the_cli_takes_the_base_url_or_the_graphql_url_and_names_the_url_it_tried(base: str, key: str) -> None:
    for url in (base, f"{base}/", f"{base}/graphql", f"{base}/graphql/"):
        done = engram("recall", "Where does anyone live?", "--url", url, "--json", key=key)
        assert done.returncode == 0, f"--url {url}: {done.stdout}{done.stderr}"
        assert json.loads(done.stdout)["items"] == []
    wrong = engram("recall", "anything", "--url", f"{base}/api", key=key)
    assert wrong.returncode == 1 and f"HTTP 404 from {base}/api/graphql" in " ".join(wrong.stdout.split()), wrong
    away = engram("recall", "anything", "--url", f"{UNREACHABLE}/graphql", key=key)
    assert away.returncode == 1 and f"cannot reach the API at {UNREACHABLE}/graphql" in away.stdout, away


def test_the_python_client_takes_either_url(base: str, key: str, space: str) -> None:
    for url in (base, f"{base}/graphql"):
        http = httpx.Client(headers={"Authorization": f"Bearer {key}"}, timeout=60)  # the client closes it
        with EngramClient(url=url, http_client=http) as client:
            assert client.stats().stats.space == space


async def _bridge(url: str, key: str, args: list[str], errlog: Any) -> tuple[dict[str, Any] | None, str]:
    """`engram mcp` launched as a desktop host does (its env only): a recall's result, or its tool error."""
    env = {"ENGRAM_API_KEY": key, "ENGRAM_URL": url, "PATH": os.environ["PATH"], "HOME": os.environ["HOME"]}
    server = StdioServerParameters(command=str(Path(sys.executable).with_name("engram")), args=args, env=env)
    async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        arguments = {"query": "Where does anyone live?"}
        if url.startswith(UNREACHABLE):
            return None, await refused(session, "recall", arguments)
        return await call(session, "recall", arguments), ""


def _run_bridge(url: str, key: str, args: list[str]) -> tuple[dict[str, Any] | None, str, str]:
    with tempfile.TemporaryFile("w+") as errlog:
        answer, error = asyncio.run(asyncio.wait_for(_bridge(url, key, args, errlog), timeout=180))
        errlog.seek(0)
        return answer, error, errlog.read()


def test_the_mcp_bridge_takes_either_url_is_quiet_and_names_the_url_it_tried(base: str, key: str) -> None:
    for url in (base, f"{base}/graphql"):
        answer, _, stderr = _run_bridge(url, key, ["mcp"])
        assert answer is not None and answer["items"] == [], answer
        assert "INFO" not in stderr and "Processing request" not in stderr, stderr  # quiet by default
    _, _, verbose = _run_bridge(base, key, ["mcp", "-v"])
    assert "Processing request" in verbose or "HTTP Request" in verbose, verbose
    _, error, _ = _run_bridge(f"{UNREACHABLE}/graphql", key, ["mcp"])
    assert f"cannot reach the API at {UNREACHABLE}/graphql" in error, error


def test_keys_create_prints_a_line_to_paste(base: str, space: str) -> None:
    done = engram("keys", "create", "--space", space)
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("export ENGRAM_API_KEY="))
    # Pasted into a shell, the variable holds the key, whole (no wrapping, no quoting needed).
    shell = subprocess.run(
        ["bash", "-c", f'{line}\nprintf %s "$ENGRAM_API_KEY"'], capture_output=True, text=True, timeout=30
    )
    pasted = shell.stdout
    answer = httpx.post(
        f"{base}/graphql",
        json={"query": "{ stats { space } }"},
        headers={"Authorization": f"Bearer {pasted}"},
        timeout=60,
    ).json()
    assert answer["data"]["stats"]["space"] == space, answer


def test_python_dash_m_app_cli_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "--help"], capture_output=True, text=True, timeout=120, cwd=PROJECT_ROOT
    )
    assert done.returncode == 0 and "recall" in done.stdout and "Usage" in done.stdout, done.stdout + done.stderr


def test_a_person_at_the_root_is_sent_somewhere_useful(base: str) -> None:
    first = httpx.get(f"{base}/", timeout=30)
    assert first.status_code in (200, 307), first.text
    if first.status_code == 307:
        assert first.headers["location"] in ("/inspector", "/graphql")
        page = httpx.get(f"{base}/", headers={"accept": "text/html"}, follow_redirects=True, timeout=30)
        assert page.status_code == 200
    else:
        assert "/graphql" in first.json()["graphql"]


def test_users_leaves_out_a_user_whose_episodes_were_all_forgotten(key: str) -> None:
    _ok("remember", "I keep my kayak at the lake house.", "--user", "zed", "--id", "z-1", "--wait", key=key)
    _ok("remember", "I repair old radios.", "--user", "yan", "--id", "y-1", "--wait", key=key)
    assert _ok("list", "users", key=key).split() == ["yan", "zed"]
    _ok("forget", "--episode", "z-1", "--user", "zed", key=key)
    assert _ok("list", "users", key=key).split() == ["yan"]
