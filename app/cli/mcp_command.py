"""`engram mcp`: the MCP server over stdio, for agents that launch their tools as subprocesses."""

from __future__ import annotations

import logging
import os
from typing import Annotated

import typer

from app.cli.client_options import UrlOption


def mcp_command(
    api_key: Annotated[
        str,
        typer.Option(
            "--api-key", envvar="ENGRAM_API_KEY", help="a space's API key (egk_...): it selects the memory space"
        ),
    ],
    url: UrlOption = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="log every request and API call to stderr (default: warnings only)")
    ] = False,
) -> None:
    """Serve Engram's memory tools over MCP stdio (remember, recall, associate, forget, correct,
    explore, list, export, job status).

    Every tool calls the GraphQL API with the key, so the API must be running (`engram up`). The API's address is the
    other client commands' (--url, ENGRAM_URL; ENGRAM_API_URL, the GraphQL endpoint, is still read where ENGRAM_URL is
    not set). For agents that speak streamable HTTP, the API itself serves the same tools at ENGRAM_URL/mcp.
    """
    from app.cli.client_settings import ClientSettings
    from app.mcp.server import build_mcp_server
    from app.mcp.transports import remote_client_source

    address = url or os.environ.get("ENGRAM_API_URL")
    endpoint = f"{ClientSettings(url=address).base_url()}/graphql"
    server = build_mcp_server(remote_client_source(endpoint, api_key))
    # The host shows the bridge's stderr beside the conversation: a line per call (the MCP library's and httpx's INFO
    # lines) buries the one warning that matters. FastMCP configured the root logger as it was built.
    logging.getLogger().setLevel(logging.INFO if verbose else logging.WARNING)
    server.run("stdio")
