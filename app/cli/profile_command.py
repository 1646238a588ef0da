"""`engram profile`: what memory believes about a user now, slot by slot (value, since when, the turn that told it),
and what it believed before."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from app.cli.api_client import expect
from app.cli.client_options import KeyOption, SpaceCheck, UrlOption, check_names, failures, open_client, where

console = Console()


def _value(fact: dict[str, Any]) -> str:
    value = fact["value"] or fact["text"]  # a correction names no value of its own: its statement says it
    return value if fact["polarity"] else f"not {value}"


def _day(value: str | None) -> str:
    return (value or "")[:10] or "?"


def _told(fact: dict[str, Any]) -> str:
    """The turn that told it: the app's id, who said it and when (the first proof; how many more)."""
    proofs = fact["provenance"]
    if not proofs:
        return ""
    first = proofs[0]
    who = f"{first['speaker']}, " if first["speaker"] else ""
    more = f" (+{len(proofs) - 1})" if len(proofs) > 1 else ""
    return f"{first['externalId']} ({who}{_day(first['occurredAt'])}){more}"


def print_profile(console: Console, answer: dict[str, Any], memory: str) -> None:
    """A table per subject, the user's own first: a row per slot, with what it held before."""
    if not answer["subjects"]:
        console.print(escape(f"no facts in the profile of {memory}"), highlight=False)
        return
    for subject in answer["subjects"]:
        table = Table(title=escape(f"{subject['subject']} ({subject['facts']} facts) in {memory}"))
        for column in ("slot", "value", "since", "told by", "before"):
            table.add_column(column)
        for slot in subject["slots"]:
            now = [f for f in (slot["current"], *slot["alsoCurrent"]) if f]
            before = "\n".join(
                f"{_value(f)} ({_day(f['validFrom'])} to {_day(f['validTo'])})" for f in slot["history"]
            )  # fmt: skip
            # Stored text is escaped: rich would read "[shares an image]" as markup and drop it.
            table.add_row(
                escape(slot["slot"]),
                escape("\n".join(_value(f) for f in now) if now else "(ended)"),
                "\n".join(_day(f["validFrom"]) for f in now),
                escape("\n".join(_told(f) for f in now)),
                escape(before),
            )
        console.print(table)
    if answer["truncated"]:
        console.print("more facts than one profile shows: ask for one --subject", highlight=False)


def profile(
    user: Annotated[str, typer.Option("--user", "-u", help="whose profile: a user of the space")],
    subject: Annotated[
        str | None, typer.Option(help="only this subject, as memory names it (any case); default: all")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the API's answer as JSON")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """What memory believes about USER now: for each subject (the user first) and slot (home, employer, ...), the
    value, since when and the turn that told it, and the values it held before."""
    with failures(console):
        check_names(("--user", user), ("--subject", subject))
        with open_client(url, api_key, space) as client:
            answer = expect(client.call("profile", {"user": user, "subject": subject})["profile"], "Profile")
        if as_json:
            print(json.dumps(answer, indent=2, ensure_ascii=False))
            return
        print_profile(console, answer, where(user, space))
