"""The demo's agent half: a scripted agent loop that uses Engram only through its MCP tools (streamable HTTP).

    python -m app.demos.mcp_demo --space demo

For each user message the agent first calls `recall` and puts the compact `context` into its prompt (printed here
instead of sent to a model), then calls `remember` with the turn, so the next message can recall it.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from mcp import ClientSession
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from app.mcp.client_sessions import http_session
from engram.settings import get_settings
from graph.api_keys import ApiKeyStore
from graph.driver import get_driver

console = Console()
USER_MESSAGES = [
    "I switched my long runs to Sunday mornings because of the heat.",
    "Can you remind me what my sister got from me, and when do I do my long runs now?",
]


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    if result.isError or result.structuredContent is None:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        raise RuntimeError(f"{tool} failed: {text}")
    return result.structuredContent


async def _agent(api_base: str, key: str) -> None:
    async with http_session(api_base, key) as session:
        tools = [tool.name for tool in (await session.list_tools()).tools]
        console.print(f"MCP {api_base}/mcp: tools {', '.join(tools)}")
        session_id = f"mcp-demo-{datetime.now(UTC):%Y%m%dT%H%M%S}"
        for turn, message in enumerate(USER_MESSAGES, start=1):
            console.print(f"\n[bold]user:[/bold] {message}")
            answer = await _call(session, "recall", {"query": message, "token_budget": 200, "limit": 4})
            context = Text(answer["context"])  # plain text: its [kind score; id] tags are not rich markup
            console.print(Panel(context, title="recall -> the agent's context", expand=False))
            said = {
                "id": f"turn-{turn}",
                "started_at": datetime.now(UTC).isoformat(),
                "turns": [{"speaker": "User", "text": message}],
            }
            record = {"type": "conversation", "id": session_id, "sessions": [said]}
            job = await _call(session, "remember", {"records": [record], "wait": True, "timeout_s": 300})
            console.print(f"remember -> job {job['job_id']} {job['state'].lower()}: {job['counts']}")


def demo(space: Annotated[str, typer.Option("--space", "-s")] = "demo") -> None:
    settings = get_settings()
    store = ApiKeyStore(get_driver(), settings.neo4j.database)
    store.create_space(space)
    key = store.issue(space, "mcp-demo").secret
    api_base = f"http://{settings.api.host}:{settings.api.port}"
    url = f"{api_base}/mcp"
    asyncio.run(_agent(api_base, key))
    config = {"mcpServers": {"engram": {"command": "engram", "args": ["mcp"], "env": {"ENGRAM_API_KEY": key}}}}
    console.print(f"\nAdd Engram to an MCP client (stdio): {json.dumps(config)}", highlight=False, soft_wrap=True)
    console.print(f'or over HTTP: {url} with the header "Authorization: Bearer {key}"', highlight=False, soft_wrap=True)


if __name__ == "__main__":
    typer.run(demo)
