"""The README's quickstart, run as an adopter runs it: every block marked `<!-- quickstart: NAME -->` is executed in
order (bash blocks in bash, sharing exported variables and functions from block to block as one terminal would;
python blocks with this venv's interpreter) against the stack the tests run on, with `ENGRAM_URL`,
`ENGRAM_API_ADMIN_KEY` and `ENGRAM_SPACE` set to that stack's values; each block's output is checked. The MCP blocks
print a host's config: the test launches `engram mcp` from the stdio entry exactly as a desktop host would (only the
entry's command, args and env) and connects to the HTTP entry's URL with its header, and uses the tools through both.
Blocks marked `not run` (the two commands themselves) are not executed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from engram.settings import PROJECT_ROOT, EngramSettings
from tests.e2e.mcp.agent_session import EXPECTED_TOOLS, call

README = PROJECT_ROOT / "README.md"
MARK = re.compile(r"<!-- quickstart: (not run|[\w-]+)[^>]*-->\n```(\w+)\n(.*?)\n```", re.S)
BLOCK_TIMEOUT_S = 420  # a remember waits for its ingest job, behind whatever else the stack's worker is doing


@dataclass(frozen=True)
class Block:
    name: str
    language: str
    code: str


def quickstart_section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]


def quickstart_blocks() -> list[Block]:
    return [Block(name, language, code) for name, language, code in MARK.findall(quickstart_section())]


@dataclass
class Terminal:
    """One shell session over several blocks: exported variables and functions carry over, as in a terminal."""

    env: dict[str, str]
    workdir: Path

    def bash(self, code: str) -> str:
        functions = self.workdir / "functions.sh"
        functions.touch()
        dump = self.workdir / "env.bin"
        script = f"source {functions}\nset -euo pipefail\n{code}\ndeclare -f > {functions}\nenv -0 > {dump}\n"
        out = self._run(["bash", "-c", script])
        self.env = dict(item.split("=", 1) for item in dump.read_text().split("\0") if "=" in item)
        return out

    def python(self, code: str) -> str:
        return self._run([sys.executable, "-c", code])

    def _run(self, command: list[str]) -> str:
        done = subprocess.run(
            command, env=self.env, cwd=self.workdir, capture_output=True, text=True, timeout=BLOCK_TIMEOUT_S
        )
        assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout


def _json_lines(out: str) -> list[Any]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check_env(out: str, terminal: Terminal) -> None:
    assert json.loads(out)["status"] == "ready"


def check_space(out: str, terminal: Terminal) -> None:
    assert re.fullmatch(r"egk_\w+\.\S+", out.strip()), out
    assert terminal.env["ENGRAM_API_KEY"] == out.strip()


def check_helper(out: str, terminal: Terminal) -> None:
    assert json.loads(out)["data"]["stats"]["space"] == terminal.env["ENGRAM_SPACE"]


def check_remember(out: str, terminal: Terminal) -> None:
    answer, state = out.strip().split("\n")
    episodes = [e for source in json.loads(answer)["sources"] for e in source["episodes"]]
    assert [e["externalId"] for e in episodes] == ["msg-1"] and episodes[0]["id"].startswith("ep_"), answer
    assert state == "SUCCEEDED"


def check_recall(out: str, terminal: Terminal) -> None:
    items = json.loads(out)["items"]
    lisbon = next(item for item in items if "Lisbon" in item["text"])
    assert [p["externalId"] for p in lisbon["provenance"]] == ["msg-1"]
    assert 0 <= lisbon["relevance"] <= 1


def check_nothing(out: str, terminal: Terminal) -> None:
    other_user, reason = out.strip().split("\n", 1)
    assert json.loads(other_user)["recall"]["items"] == []
    assert reason.startswith("nothing relevant"), reason


def check_forget(out: str, terminal: Terminal) -> None:
    forgotten, after = _json_lines(out)
    assert len(forgotten["episodeIds"]) == 1 and forgotten["notFound"] == [], forgotten
    assert not any("Lisbon" in item["text"] for item in after["recall"]["items"]), after


def check_python(out: str, terminal: Terminal) -> None:
    lines = out.strip().splitlines()
    assert any("Miso" in line and "msg-2" in line for line in lines), out
    assert lines[-1] == "1 episodes forgotten", out  # msg-1 went in step 5: alice's memory held msg-2 alone


def check_cli(out: str, terminal: Terminal) -> None:
    assert "cello" in out and "msg-3" in out, out  # the recalled fact, proven by the app's id
    assert "forgot from user 'alice'" in out and "1 episodes" in out, out


async def _use_tools(session: ClientSession, remember: bool) -> None:
    await session.initialize()
    assert {tool.name for tool in (await session.list_tools()).tools} == EXPECTED_TOOLS
    if remember:
        text = "The on-call engineer restarts the worker after a deploy."
        record = {"type": "document", "id": "handbook", "text": text}
        job = await call(session, "remember", {"records": [record], "wait": True, "timeout_s": 300})
        assert job["state"] == "SUCCEEDED", job
    answer = await call(session, "recall", {"query": "Who restarts the worker after a deploy?", "limit": 3})
    assert any("on-call engineer" in item["text"] for item in answer["items"]), answer


def check_mcp_stdio(out: str, terminal: Terminal) -> None:
    entry = json.loads(out)["mcpServers"]["engram"]
    assert Path(entry["command"]).is_file(), entry["command"]
    # A desktop host passes the entry's env (plus a few safe variables such as PATH and HOME) from a directory of its
    # own: nothing of the test's environment or of the checkout helps the bridge find the API or the space.
    server = StdioServerParameters(command=entry["command"], args=entry["args"], env=entry["env"], cwd=terminal.workdir)

    async def host() -> None:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await _use_tools(session, remember=True)

    asyncio.run(asyncio.wait_for(host(), timeout=BLOCK_TIMEOUT_S))


def check_mcp_http(out: str, terminal: Terminal) -> None:
    entry = json.loads(out)["mcpServers"]["engram"]
    assert entry["type"] == "http"

    async def host() -> None:
        async with (
            httpx.AsyncClient(headers=entry["headers"], timeout=300) as http,
            streamable_http_client(entry["url"], http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await _use_tools(session, remember=False)  # what the stdio host remembered, through the same space

    asyncio.run(asyncio.wait_for(host(), timeout=BLOCK_TIMEOUT_S))
    assert httpx.post(entry["url"], json={}, timeout=30).status_code == 401  # no header, no tools


def check_cleanup(out: str, terminal: Terminal) -> None:
    assert json.loads(out)["data"]["deleteSpace"]["__typename"] == "SpaceDeleted", out
    gone = httpx.post(
        f"{terminal.env['ENGRAM_URL']}/graphql",
        json={"query": "{ stats { space } }"},
        headers={"Authorization": f"Bearer {terminal.env['ENGRAM_API_KEY']}"},
        timeout=30,
    )
    assert gone.status_code == 401  # the space's key went with it


CHECKS: dict[str, Callable[[str, Terminal], None]] = {
    "env": check_env,
    "space": check_space,
    "helper": check_helper,
    "remember": check_remember,
    "recall": check_recall,
    "nothing": check_nothing,
    "forget": check_forget,
    "python": check_python,
    "cli": check_cli,
    "mcp-stdio": check_mcp_stdio,
    "mcp-http": check_mcp_http,
    "cleanup": check_cleanup,
}


def test_every_quickstart_block_is_marked_and_checked() -> None:
    section = quickstart_section()
    blocks = quickstart_blocks()
    assert section.count("```") == 2 * len(blocks), "a quickstart code block without a <!-- quickstart: ... --> mark"
    assert [b.name for b in blocks if b.name != "not run"] == list(CHECKS)
    not_run = [b.code for b in blocks if b.name == "not run"]
    assert any("make demo" in code for code in not_run)
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 400


@pytest.fixture()
def readme_space(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[str]:
    """A space name of its own; deleted afterwards, also when the quickstart failed before its clean-up step."""
    name = f"readme-{uuid.uuid4().hex[:12]}"
    yield name
    admin = settings.api.admin_key.get_secret_value()
    with contextlib.suppress(httpx.HTTPError):  # the API is down: what the graph holds of the space still goes below
        httpx.post(
            f"http://{settings.api.host}:{settings.api.port}/graphql",
            json={"query": "mutation($n: String!) { deleteSpace(name: $n) { __typename } }", "variables": {"n": name}},
            headers={"Authorization": f"Bearer {admin}"},
            timeout=60,
        )
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


def _stack_env(settings: EngramSettings) -> dict[str, str]:
    """This process's environment (the test stack's) without a space key, pointed at the test stack's API."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_API_KEY")}
    env |= {
        "ENGRAM_URL": f"http://{settings.api.host}:{settings.api.port}",
        "ENGRAM_VENV": str(Path(sys.executable).parent.parent),
    }
    return env


def run_quickstart(terminal: Terminal) -> None:
    for block in quickstart_blocks():
        if block.name == "not run":
            continue
        out = ""
        try:
            out = terminal.bash(block.code) if block.language == "bash" else terminal.python(block.code)
            CHECKS[block.name](out, terminal)
        except AssertionError as failure:
            raise AssertionError(f"quickstart block {block.name!r}: {failure}\n{out}") from failure


def test_the_quickstart_runs_as_written(settings: EngramSettings, readme_space: str, tmp_path: Path) -> None:
    admin = settings.api.admin_key.get_secret_value()
    assert admin, "the stack's API needs ENGRAM_API_ADMIN_KEY (the test command sets one; export the running stack's)"
    env = _stack_env(settings) | {"ENGRAM_API_ADMIN_KEY": admin, "ENGRAM_SPACE": readme_space}
    run_quickstart(Terminal(env, tmp_path))


@pytest.mark.skipif(
    not os.environ.get("ENGRAM_TEST_STACK"),
    reason="runs `make demo` (infra/demo.sh): only inside the test command, whose stack it then plays on",
)
def test_the_quickstart_after_make_demo_with_no_variable_set(
    settings: EngramSettings, readme_space: str, tmp_path: Path
) -> None:
    """The README's order for a newcomer: `make demo`, then the quickstart, with no admin key in the shell. The demo
    runs on the test stack (the test command's environment names its ports and state folder), whose admin key the
    test command keeps in that state folder as a stack started without the variable keeps its own."""
    env = {k: v for k, v in _stack_env(settings).items() if k != "ENGRAM_API_ADMIN_KEY"}
    demo = subprocess.run(
        ["bash", str(PROJECT_ROOT / "infra" / "demo.sh")],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=2 * BLOCK_TIMEOUT_S,
    )
    assert demo.returncode == 0, f"make demo: exit {demo.returncode}\n{demo.stdout[-3000:]}\n{demo.stderr[-3000:]}"
    key_file = settings.state_dir / "admin-key"
    assert f"export ENGRAM_API_ADMIN_KEY=$(cat {key_file})" in demo.stdout, demo.stdout[-2000:]
    assert key_file.stat().st_mode & 0o777 == 0o600
    env["ENGRAM_SPACE"] = readme_space
    terminal = Terminal(env, tmp_path)
    run_quickstart(terminal)
    assert terminal.env["ENGRAM_API_ADMIN_KEY"] == settings.api.admin_key.get_secret_value()


def test_a_quickstart_command_that_fails_says_why(settings: EngramSettings, tmp_path: Path) -> None:
    """Without the admin key, the space step prints the API's refusal, not `null`; the helper prints a GraphQL
    error's message and fails."""
    blocks = {b.name: b.code for b in quickstart_blocks()}
    env = _stack_env(settings) | {"ENGRAM_API_ADMIN_KEY": "not-the-admin-key", "ENGRAM_SPACE": "never-made"}
    terminal = Terminal(env, tmp_path)
    done = subprocess.run(["bash", "-c", blocks["space"]], env=env, capture_output=True, text=True, timeout=60)
    assert "null" not in done.stdout, done.stdout
    assert "malformed API key" in done.stderr, done.stderr  # the API's own words, in one line
    terminal.bash(blocks["helper"].replace("gql '{ stats { space } }'", ""))
    done = subprocess.run(
        ["bash", "-c", f"source {tmp_path / 'functions.sh'}\ngql '{{ nosuchfield }}'"],
        env=terminal.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and done.stdout == "", done.stdout
    assert done.stderr.startswith("error: ") and "nosuchfield" in done.stderr, done.stderr
