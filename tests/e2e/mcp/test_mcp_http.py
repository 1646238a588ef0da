"""MCP over streamable HTTP at the API's /mcp, with the MCP SDK's own client, against the running stack."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from engram.settings import EngramSettings
from tests.e2e.mcp.agent_session import check_tools_listed, remember_recall_correct_forget

WRONG_KEY = "egk_0123456789abcdef.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"


async def _agent(url: str, key: str, conversation: dict[str, Any]) -> None:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        await check_tools_listed(session)
        await remember_recall_correct_forget(session, conversation)


def test_an_agent_remembers_recalls_corrects_and_forgets_over_http(
    api_base: str, space_key: str, conversation: dict[str, Any]
) -> None:
    asyncio.run(asyncio.wait_for(_agent(f"{api_base}/mcp", space_key, conversation), timeout=420))


async def _initialize(url: str, key: str) -> None:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await asyncio.wait_for(session.initialize(), timeout=30)


def test_a_wrong_key_is_refused_before_any_tool(api_base: str, settings: EngramSettings) -> None:
    with pytest.raises(BaseExceptionGroup) as raised:
        asyncio.run(_initialize(f"{api_base}/mcp", WRONG_KEY))
    statuses = [e.response.status_code for e in raised.value.exceptions if isinstance(e, httpx.HTTPStatusError)]
    assert statuses == [401]
    # The refusal says what to send, and neither a missing key nor the admin key opens a memory space.
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream"}
    missing = httpx.post(f"{api_base}/mcp", json=body, headers=headers, timeout=10)
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["errors"][0]["message"]
    admin = settings.api.admin_key.get_secret_value()
    if admin:
        as_admin = httpx.post(f"{api_base}/mcp", json=body, headers={**headers, "Authorization": f"Bearer {admin}"})
        assert as_admin.status_code == 403
