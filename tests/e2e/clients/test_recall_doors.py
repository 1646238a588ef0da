"""One recall contract on every door (graph/recall/arguments.py): the same request sent through GraphQL, the Python
client, the TypeScript client, the CLI and MCP gets the same items, and an argument out of its bounds gets the same
message from each, naming the argument and its bounds. A door that leaves an argument out sends nothing, so each
answers with the server's defaults alike."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from datetime import datetime
from typing import Any

import httpx
import neo4j
import pytest
from engram_client import EngramClient

from app.mcp.client_sessions import http_session
from engram.settings import PROJECT_ROOT, EngramSettings
from graph.recall.arguments import named_only
from tests.e2e.api.conftest import issue_key
from tests.e2e.api.test_relevance import PRIYA
from tests.e2e.mcp.agent_session import call, refused
from tests.support.cli import engram
from tests.support.graphql_client import operation

QUESTION = "What is the name of Priya's dog?"
NOW = "2024-06-01T12:00:00+00:00"
# The request every door sends (by each door's own names); what it leaves out takes the server's defaults.
NAMED = {"tokenBudget": 400, "limit": 4, "now": NOW, "minRelevance": 0.0}
OUT_OF_BOUNDS = "tokenBudget must be between 16 and 32768, got 40000"
TS_CLIENT = PROJECT_ROOT / "clients" / "typescript" / "dist" / "index.js"
# The TypeScript client's `recall`, run by node: the request's variables in, the recall payload out, as JSON.
TS_RECALL = """
const { Engram } = await import(process.env.ENGRAM_TS_CLIENT);
const engram = new Engram({ url: process.env.ENGRAM_URL, apiKey: process.env.ENGRAM_API_KEY });
const { query, ...options } = JSON.parse(process.env.ENGRAM_REQUEST);
console.log(JSON.stringify(await engram.recall(query, options)));
"""


def _graphql(url: str, key: str, variables: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(
        f"{url}/graphql",
        json={"query": operation("recall"), "variables": variables},
        headers={"Authorization": f"Bearer {key}"},
        timeout=120,
    )
    payload: dict[str, Any] = answer.json()["data"]["recall"]
    return payload


def _python(url: str, key: str, variables: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"}
    client = EngramClient(url=f"{url}/graphql", headers=headers, http_client=httpx.Client(headers=headers, timeout=120))
    now = datetime.fromisoformat(variables["now"]) if "now" in variables else None
    named = {"token_budget": variables.get("tokenBudget"), "limit": variables.get("limit"), "now": now}
    named |= {"min_relevance": variables.get("minRelevance")}
    result = client.recall(query=variables["query"], **named_only(named))
    return result.recall.model_dump(by_alias=True, mode="json")


def _typescript(url: str, key: str, variables: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node")
    assert node and TS_CLIENT.exists(), "no node or no built TypeScript client: run infra/install.sh"
    env = os.environ | {
        "ENGRAM_TS_CLIENT": TS_CLIENT.as_uri(),
        "ENGRAM_URL": url,
        "ENGRAM_API_KEY": key,
        "ENGRAM_REQUEST": json.dumps(variables),
    }
    run = subprocess.run(
        [node, "--input-type=module", "-e", TS_RECALL], capture_output=True, text=True, env=env, timeout=180
    )
    assert run.returncode == 0, run.stderr[-3000:]
    payload: dict[str, Any] = json.loads(run.stdout)
    return payload


def _cli(key: str, variables: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    options = {"--token-budget": "tokenBudget", "--limit": "limit", "--now": "now", "--min-relevance": "minRelevance"}
    named = [part for option, name in options.items() if name in variables for part in (option, str(variables[name]))]
    return engram("recall", variables["query"], *named, "--json", key=key)


async def _mcp(url: str, key: str, arguments: list[dict[str, Any]], bad: dict[str, Any]) -> tuple[list[Any], str]:
    async with http_session(url, key) as session:
        job = await call(session, "remember", {"records": [PRIYA], "wait": True, "timeout_s": 300})
        assert job["state"] == "SUCCEEDED", job
        answers = [await call(session, "recall", named) for named in arguments]
        return answers, await refused(session, "recall", bad)


def _ids(payload: dict[str, Any]) -> list[str]:
    assert payload["__typename"] == "Recall", payload
    return [item["id"] for item in payload["items"]]


@pytest.fixture()
def door_key(driver: neo4j.Driver, space: str) -> str:
    return issue_key(driver, space)


def test_every_door_answers_the_same_request_alike(settings: EngramSettings, door_key: str) -> None:
    url = f"http://{settings.api.host}:{settings.api.port}"
    mcp_named = {"query": QUESTION, "token_budget": 400, "limit": 4, "now": NOW, "min_relevance": 0.0}
    (mcp_answer, mcp_defaults), mcp_refusal = asyncio.run(
        asyncio.wait_for(
            _mcp(url, door_key, [mcp_named, {"query": QUESTION}], {"query": QUESTION, "token_budget": 40_000}), 420
        )
    )
    request = {"query": QUESTION, **NAMED}
    graphql = _ids(_graphql(url, door_key, request))
    assert graphql and len(graphql) <= 4
    cli = _cli(door_key, request)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    by_door = {
        "python": _ids(_python(url, door_key, request)),
        "typescript": _ids(_typescript(url, door_key, request)),
        "cli": _ids(json.loads(cli.stdout)),
        "mcp": [item["id"] for item in mcp_answer["items"]],
    }
    assert by_door == dict.fromkeys(by_door, graphql)

    # Left out, an argument takes the server's default on every door: MCP no longer sends a limit of its own.
    defaults = _ids(_graphql(url, door_key, {"query": QUESTION}))
    assert [item["id"] for item in mcp_defaults["items"]] == defaults
    assert _ids(json.loads(_cli(door_key, {"query": QUESTION}).stdout)) == defaults

    # Out of bounds: the same words from every door.
    bad = {"query": QUESTION, "tokenBudget": 40_000}
    over = _graphql(url, door_key, bad)
    assert over["__typename"] == "OverBudget" and over["message"] == OUT_OF_BOUNDS
    assert _python(url, door_key, bad)["message"] == OUT_OF_BOUNDS
    assert _typescript(url, door_key, bad)["message"] == OUT_OF_BOUNDS
    cli_refusal = _cli(door_key, bad)
    assert cli_refusal.returncode == 2 and OUT_OF_BOUNDS in " ".join(cli_refusal.stdout.split())
    assert OUT_OF_BOUNDS in mcp_refusal
