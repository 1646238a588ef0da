"""`engram associate`: what memory brings up for a remark (proactive recall), each memory with the paths that brought
it, or nothing and the reason; also how `make demo` shows its remarks."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from app.cli.api_client import expect
from app.cli.client_options import (
    KeyOption,
    SpaceCheck,
    UrlOption,
    UserOption,
    api_time,
    check_names,
    check_text,
    failures,
    open_client,
    where,
)
from app.cli.recall_command import print_trace

console = Console()


def print_associations(console: Console, answer: dict[str, Any], remark: str, memory: str, trace: bool) -> None:
    """The memories worth bringing up, best first, each with why; an empty answer says why nothing cleared the bar."""
    found = answer["associations"]
    if not found:
        console.print(escape(f"associate {remark!r} in {memory}: nothing ({answer.get('reason')})"), highlight=False)
    else:
        table = Table(title=escape(f"associate: {remark!r} in {memory}"))
        for column in ("score", "kind", "memory", "why", "told"):
            table.add_column(column, justify="right" if column == "score" else "left")
        for association in found:
            item = association["item"]
            why = "\n".join(f"{path['kind'].lower()}: {path['detail']}" for path in association["why"])
            told = "\n".join(f"{p['speaker'] or '?'}, {(p['occurredAt'] or '?')[:10]}" for p in item["provenance"][:2])
            # Stored text is escaped: rich would read "[shares an image]" as markup and drop it.
            table.add_row(f"{item['score']:.3f}", item["kind"], escape(item["text"]), escape(why), escape(told))
        console.print(table)
    if trace:
        print_trace(console, answer["trace"])


def associate(
    remark: Annotated[str, typer.Argument(help="what the user just said (a remark, not a question)")],
    user: UserOption = None,
    speaker: Annotated[
        str | None,
        typer.Option(help="who says the remark, as they are named in memory: their own earlier words come first"),
    ] = None,
    now: Annotated[
        datetime | None,
        typer.Option(help='when it is said (ISO 8601, with the user\'s zone): "tonight", "Wednesday night again"'),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, max=50, help="most memories to bring up (default: the API's, 10)")
    ] = None,
    trace: Annotated[bool, typer.Option("--trace/--no-trace", help="print the explanation trace")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the API's answer as JSON")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Bring up what memory holds that REMARK touches (proactive recall): each memory with why (a shared concept, the
    same weekday or time of day, the feeling voiced, two hops through associated concepts, wording), or nothing and
    the reason."""
    with failures(console):
        check_text("remark", remark)
        check_names(("--speaker", speaker))
        variables = {
            "utterance": remark, "user": user, "speaker": speaker, "limit": limit,
            "now": api_time(now),
        }  # fmt: skip
        with open_client(url, api_key, space) as client:
            answer = expect(client.call("associate", variables)["associate"], "Associations")
        if as_json:
            print(json.dumps(answer, indent=2, ensure_ascii=False))
            return
        print_associations(console, answer, remark, where(user, space), trace)
