"""`engram recall`'s table (app/cli/recall_command.py): an earlier version says so, and an aggregate is stated."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from app.cli.recall_command import print_recall


def item(item_id: str, text: str, **extra: Any) -> dict[str, Any]:
    proof = {"externalId": "s1-1", "text": f"Tom: {text}"}
    return {"id": item_id, "kind": "proposition", "text": text, "score": 0.7, "relevance": 0.8,
            "provenance": [proof], **extra}  # fmt: skip


def printed(answer: dict[str, Any]) -> str:
    console = Console(width=160, record=True)
    print_recall(console, {"tokens": 20, "hops": 1, "trace": [], "cypher": "", **answer}, "q", "tom's memory", False)
    return console.export_text()


def test_an_earlier_version_is_marked_with_when_it_stopped_holding() -> None:
    out = printed({"items": [
        item("p_madrid", "Tom moved from Lisbon to Madrid"),
        item("p_lisbon", "Tom moved to Lisbon", supersededBy="p_madrid", validTo="2024-05-01T00:00:00+00:00"),
    ]})  # fmt: skip
    assert "(earlier version, until 2024-05-01)" in out and out.count("earlier version") == 1


def test_an_aggregate_is_stated_under_the_items() -> None:
    aggregate = {
        "kind": "sum", "target": "spend on the car", "period": None, "count": 2, "sum": 65.0, "unit": "USD",
        "units": [{"unit": "USD", "sum": 65.0, "count": 2}], "periods": [], "unquantified": 0, "scanned": 2,
        "reason": None, "items": [], "value": 65.0, "valueUnit": "USD", "valueFrom": "sum",
    }  # fmt: skip
    out = printed({"items": [item("p_tyres", "Tom spent $40 on tyres")], "aggregate": aggregate})
    assert "aggregate (sum of 'spend on the car'): count 2; sum 65 USD" in out
    # A comparison's answer is the difference of its two amounts, stated apart from their sum.
    compared = aggregate | {"kind": "compare", "value": 15.0, "valueFrom": "difference"}
    out = printed({"items": [], "aggregate": compared})
    assert "count 2; answer 15 USD (difference); sum 65 USD" in out
