"""`engram recall`: print what the API recalls for a query, with provenance and (optionally) the trace."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def print_recall(console: Console, answer: dict[str, Any], query: str, memory: str, trace: bool) -> None:
    """The items as a table, best first; an empty answer says why."""
    items = answer["items"]
    table = Table(title=f"recall: {query!r} in {memory} ({answer['tokens']} tokens, {answer['hops']} hop(s))")
    table.add_column("score", justify="right")
    table.add_column("relevance", justify="right")
    table.add_column("kind")
    table.add_column("knowledge")
    table.add_column("proven by")
    for item in items:
        # Stored text is escaped: rich would read "[shares an image]" or a Cypher "[r:PROVEN_BY]" as markup and drop it.
        proofs = "\n".join(f"{p['externalId']} {p['text'][:80]}" for p in item["provenance"])
        relevance = "" if item.get("relevance") is None else f"{item['relevance']:.2f}"
        kind = item["kind"]
        if item.get("supersededBy"):  # an earlier version, just below the fact that replaced it
            kind += f"\n(earlier version, until {(item.get('validTo') or '?')[:10]})"
        table.add_row(f"{item['score']:.3f}", relevance, kind, escape(item["text"]), escape(proofs))
    console.print(table)
    if answer.get("aggregate"):
        console.print(escape(aggregate_line(answer["aggregate"])), highlight=False)
    if not items:
        console.print(escape(answer.get("reason") or "nothing recalled (is this memory empty?)"), highlight=False)
    if trace:
        print_trace(console, answer["trace"])
        console.print(f"Neo4j Browser:\n{escape(answer['cypher'])}", highlight=False)


def print_trace(console: Console, steps: list[dict[str, Any]]) -> None:
    """The explanation trace, a line per step: what it did and how long it took."""
    for step in steps:
        detail = escape(str(step["detail"]))
        console.print(f"[bold]{step['step']}[/bold] ({step['ms']:.1f} ms): {detail}", highlight=False)


def aggregate_line(aggregate: dict[str, Any]) -> str:
    """The aggregate block as the MCP tool's context states it: count, sum with its unit, periods, or why not."""
    from engram_client.recall import RecallRecallRecallAggregate

    from app.mcp.models import AggregateAnswer
    from app.mcp.render import render_aggregate

    parsed = RecallRecallRecallAggregate.model_validate(aggregate)
    return render_aggregate(AggregateAnswer.model_validate(parsed.model_dump()))
