"""`engram serve`, `engram schema` and `engram keys ...`: the GraphQL service and its API keys."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from engram.api_key_roles import KeyRole

if TYPE_CHECKING:
    from graph.api_keys import ApiKeyStore

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "graphql" / "schema.graphql"
console = Console()
keys_cli = typer.Typer(help="Create, list and revoke the API keys of a space (talks to Neo4j directly).")


def serve() -> None:
    """Run the GraphQL API in the foreground (ENGRAM_API_HOST/PORT; ENGRAM_API_DEVELOPMENT=1 for GraphiQL)."""
    from app.api.server import main

    main()


def schema(
    out: Annotated[Path, typer.Option(help="where to write the SDL")] = SCHEMA_FILE,
    check: Annotated[bool, typer.Option("--check", help="exit 1 if the file differs from the code")] = False,
) -> None:
    """Export the GraphQL schema as SDL (graphql/schema.graphql), or check that the file is current."""
    from app.api.schema.build import build_schema

    sdl = str(build_schema()) + "\n"
    if check:
        current = out.read_text(encoding="utf-8") if out.is_file() else ""
        if current != sdl:
            console.print(f"[red]{out} is out of date[/red]: run `engram schema`")
            raise typer.Exit(1)
        console.print(f"{out} is current")
        return
    out.write_text(sdl, encoding="utf-8")
    console.print(f"wrote {out}")


def _store() -> ApiKeyStore:
    from engram.settings import get_settings
    from graph.api_keys import ApiKeyStore
    from graph.driver import get_driver

    return ApiKeyStore(get_driver(), get_settings().neo4j.database)


@keys_cli.command("create")
def create_key(
    space: Annotated[str, typer.Option("--space", "-s", help="the space the key opens (created if missing)")],
    label: Annotated[str, typer.Option(help="a note to recognise the key by")] = "",
    role: Annotated[
        KeyRole, typer.Option(help="reader: reads; writer: also writes memory; owner: also revokes keys")
    ] = (KeyRole.OWNER),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="print only the key")] = False,
) -> None:
    """Issue a key for SPACE. The secret is printed once and never stored."""
    store = _store()
    try:
        created = store.create_space(space)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    issued = store.issue(space, label, role)
    if quiet:
        print(issued.secret)
        return
    console.print(f"space '{space}' {'created' if created else 'exists'}; new {role.value} key {issued.info.id}:")
    # A plain print: rich would wrap a long line, and the line is meant to be pasted into a shell as it is.
    print(f"export ENGRAM_API_KEY={issued.secret}")
    console.print("sent as 'Authorization: Bearer <key>'; it is not stored and cannot be shown again")


@keys_cli.command("list")
def list_keys(space: Annotated[str, typer.Option("--space", "-s")]) -> None:
    """List the keys of SPACE (ids, labels, when created and revoked)."""
    table = Table(title=f"API keys of '{space}'")
    for column in ("id", "label", "role", "minted by", "created", "revoked"):
        table.add_column(column)
    for key in _store().keys(space):
        revoked = key.revoked_at.isoformat() if key.revoked_at else ""
        table.add_row(key.id, key.label, key.role.value, key.minted_by or "", key.created_at.isoformat(), revoked)
    console.print(table)


@keys_cli.command("revoke")
def revoke_key(
    key_id: Annotated[str, typer.Argument(help="the key's id (from `engram keys list`)")],
    space: Annotated[str, typer.Option("--space", "-s")],
) -> None:
    """Revoke a key of SPACE: it stops working at once."""
    revoked = _store().revoke(space, key_id)
    if revoked is None:
        console.print(f"[red]error:[/red] no key {key_id!r} in space '{space}'")
        raise typer.Exit(2)
    console.print(f"revoked {key_id}")


def register(cli: typer.Typer, panel: str) -> None:
    cli.command(rich_help_panel=panel)(serve)
    cli.command(rich_help_panel=panel)(schema)
    cli.add_typer(keys_cli, name="keys", rich_help_panel=panel)
