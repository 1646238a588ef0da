"""The MCP recall tool's `context` text (app/mcp/render.py): what an agent reads of each item."""

from __future__ import annotations

from datetime import UTC, datetime

from app.mcp.models import Evidence, RecalledItem
from app.mcp.render import render_context


def item(item_id: str, text: str, **extra: object) -> RecalledItem:
    told = Evidence(
        episode_id=f"ep_{item_id}", source_id="s", external_id="t1", speaker="Tom", text=f"Tom: {text}",
        occurred_at=datetime(2024, 3, 4, tzinfo=UTC),
    )  # fmt: skip
    return RecalledItem.model_validate(
        {"id": item_id, "kind": "proposition", "text": text, "score": 0.7, "components": {}, "valid_from": None,
         "provenance": [told], **extra}
    )  # fmt: skip


def test_an_earlier_version_says_it_no_longer_holds_since_when_and_what_replaced_it() -> None:
    current = item("p_madrid", "Tom moved from Lisbon to Madrid", valid_from=datetime(2024, 5, 1, tzinfo=UTC))
    earlier = item(
        "p_lisbon", "Tom moved to Lisbon", superseded_by="p_madrid", valid_to=datetime(2024, 5, 1, tzinfo=UTC)
    )
    first, second = render_context([current, earlier]).splitlines()
    assert "true from 2024-05-01" in first and "no longer" not in first
    assert "no longer true until 2024-05-01: replaced by p_madrid" in second


def test_an_empty_answer_says_why() -> None:
    assert render_context([], "nothing relevant: no concept in memory matches 'movie'") == (
        "(nothing relevant: no concept in memory matches 'movie')"
    )
