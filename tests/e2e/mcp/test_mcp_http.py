"""MCP over streamable HTTP at the API's /mcp, with the MCP SDK's own client, against the running stack."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.mcp.client_sessions import http_session
from engram.settings import EngramSettings
from tests.e2e.mcp.agent_session import WRONG_KEY, check_tools_listed, remember_recall_correct_forget


async def _agent(api_base: str, key: str, conversation: dict[str, Any]) -> None:
    async with http_session(api_base, key) as session:
        await check_tools_listed(session)
        await remember_recall_correct_forget(session, conversation)


def test_an_agent_remembers_recalls_corrects_and_forgets_over_http(
    api_base: str, space_key: str, conversation: dict[str, Any]
) -> None:
    asyncio.run(asyncio.wait_for(_agent(api_base, space_key, conversation), timeout=420))


async def _initialize(api_base: str, key: str) -> None:
    async with http_session(api_base, key, timeout_s=30):
        pass


def test_a_wrong_key_is_refused_before_any_tool(api_base: str, settings: EngramSettings) -> None:
    with pytest.raises(BaseExceptionGroup) as raised:
        asyncio.run(_initialize(api_base, WRONG_KEY))
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
