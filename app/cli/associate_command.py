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
    failures,
    open_client,
    where,
)
from app.cli.read_options import checked_variables, read_option, read_text
from app.cli.recall_command import print_trace
from graph.recall.arguments import ASSOCIATE_ARGUMENTS, ASSOCIATE_LIMIT, ASSOCIATE_NOW, SPEAKER, UTTERANCE

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
    remark: Annotated[str, read_text(UTTERANCE)],
    user: UserOption = None,
    speaker: Annotated[str | None, read_option(SPEAKER)] = None,
    now: Annotated[datetime | None, read_option(ASSOCIATE_NOW)] = None,
    limit: Annotated[int | None, read_option(ASSOCIATE_LIMIT)] = None,
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
        values = {"utterance": remark, "speaker": speaker, "limit": limit, "now": api_time(now)}
        variables = {"user": user, **checked_variables(ASSOCIATE_ARGUMENTS, values)}
        with open_client(url, api_key, space) as client:
            answer = expect(client.call("associate", variables)["associate"], "Associations")
        if as_json:
            print(json.dumps(answer, indent=2, ensure_ascii=False))
            return
        print_associations(console, answer, remark, where(user, space), trace)
