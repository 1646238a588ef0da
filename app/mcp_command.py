"""`engram mcp`: the MCP server over stdio, for agents that launch their tools as subprocesses."""

from __future__ import annotations

from typing import Annotated

import typer


def mcp_command(
    api_key: Annotated[
        str,
        typer.Option(
            "--api-key", envvar="ENGRAM_API_KEY", help="a space's API key (egk_...): it selects the memory space"
        ),
    ],
    url: Annotated[
        str | None,
        typer.Option(envvar="ENGRAM_API_URL", help="the GraphQL endpoint; default http://ENGRAM_API_HOST:PORT/graphql"),
    ] = None,
) -> None:
    """Serve Engram's memory tools over MCP stdio (remember, recall, forget, correct, explore, job status).

    Every tool calls the GraphQL API with the key, so the API must be running (`engram up`). For agents that speak
    streamable HTTP, the API itself serves the same tools at http://ENGRAM_API_HOST:PORT/mcp.
    """
    from app.mcp.server import build_mcp_server
    from app.mcp.transports import remote_client_source
    from engram.settings import get_settings

    api = get_settings().api
    endpoint = url or f"http://{api.host}:{api.port}/graphql"
    build_mcp_server(remote_client_source(endpoint, api_key)).run("stdio")
