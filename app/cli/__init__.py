"""`engram`: remember, recall, forget, list, export and import through the API (the commands an app developer uses),
and run and inspect the local stack (the operator's commands, which talk to Neo4j, Redis and the workers directly).

Client commands import neither a model nor a graph driver: this module imports the operator commands' heavy parts
inside their functions."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from app.cli import api_commands, client_commands
from app.cli.associate_command import associate
from app.cli.client_options import MEMORY_PANEL, OPERATOR_PANEL
from app.cli.consolidate_command import consolidate_command
from app.cli.import_command import import_command, ingest_command
from app.cli.jobs_command import jobs_app
from app.cli.mcp_command import mcp_command
from app.cli.profile_command import profile
from app.cli.reembed_command import reembed_command
from app.cli.reextract_command import reextract_command

cli = typer.Typer(
    help="Engram: long-term memory for LLM agents on Neo4j. Remember, recall and forget through the API (a space's "
    "key: --api-key or ENGRAM_API_KEY); run and inspect the local stack and its data.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The app developer's commands first: `--help` lists panels in the order their commands were registered.
cli.command("remember", rich_help_panel=MEMORY_PANEL)(client_commands.remember)
cli.command("recall", rich_help_panel=MEMORY_PANEL)(client_commands.recall)
cli.command("associate", rich_help_panel=MEMORY_PANEL)(associate)
cli.command("forget", rich_help_panel=MEMORY_PANEL)(client_commands.forget)
cli.command("list", rich_help_panel=MEMORY_PANEL)(client_commands.list_command)
cli.command("profile", rich_help_panel=MEMORY_PANEL)(profile)
cli.command("export", rich_help_panel=MEMORY_PANEL)(client_commands.export)
cli.command("import", rich_help_panel=MEMORY_PANEL)(import_command)
cli.command("ingest", rich_help_panel=MEMORY_PANEL)(ingest_command)
cli.command("mcp", rich_help_panel=MEMORY_PANEL)(mcp_command)


def _stack(action: str) -> int:
    return subprocess.call(["bash", str(PROJECT_ROOT / "infra" / "stack.sh"), action])


@cli.command(rich_help_panel=OPERATOR_PANEL)
def up() -> None:
    """Start Neo4j (and apply schema migrations), Redis, a Celery worker and the GraphQL API on 127.0.0.1."""
    raise typer.Exit(_stack("up"))


@cli.command(rich_help_panel=OPERATOR_PANEL)
def down() -> None:
    """Stop the API, the worker, Redis and Neo4j started by `engram up`."""
    raise typer.Exit(_stack("down"))


@cli.command(rich_help_panel=OPERATOR_PANEL)
def status() -> None:
    """Say which of Neo4j, Redis, the worker and the API are running (exit 3 if any is not)."""
    raise typer.Exit(_stack("status"))


@cli.command(rich_help_panel=OPERATOR_PANEL)
def migrate() -> None:
    """Apply the versioned schema files in cypher/schema/ (idempotent)."""
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.migrations import migrate as apply_migrations

    settings = get_settings()
    applied = apply_migrations(get_driver(), settings.neo4j.database)
    console.print(f"schema migrations applied now: {applied or 'none (schema up to date)'}")


@cli.command(rich_help_panel=OPERATOR_PANEL)
def browser(
    space: Annotated[str, typer.Option("--space", "-s", help="memory space to explore")],
    query: Annotated[str | None, typer.Option(help="print only this exploration query (file name, no .cypher)")] = None,
    style: Annotated[bool, typer.Option("--style", help="print only the :style command")] = False,
) -> None:
    """Explore SPACE in Neo4j Browser: the URL, the parameters, the style and the queries of cypher/browser/."""
    from app.cli.browser_command import print_browser
    from engram.ids import validate_space
    from engram.settings import get_settings
    from graph.driver import get_driver

    try:
        validate_space(space)
        print_browser(console, get_settings(), get_driver(), space, query, style)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


@cli.command(rich_help_panel=OPERATOR_PANEL)
def doctor() -> None:
    """Check every part Engram needs and say how to fix what is missing (exit 1 if any check fails)."""
    from app.cli.doctor import all_checks
    from engram.settings import get_settings

    failed = warned = 0
    for check in all_checks(get_settings()):
        result = check()
        mark = (
            "[red]FAIL[/red]" if not result.ok else "[yellow]WARN[/yellow]" if result.warning else "[green]ok  [/green]"
        )
        console.print(f"{mark} {result.name}: {result.detail}", highlight=False)
        failed += not result.ok
        warned += result.ok and result.warning
        if not result.ok or result.warning:
            console.print(f"     fix: {result.fix}", highlight=False)
    summary = "all checks passed" if not failed else f"{failed} check(s) failed"
    console.print(summary + (f", {warned} warning(s)" if warned else ""))
    raise typer.Exit(1 if failed else 0)


cli.command("consolidate", rich_help_panel=OPERATOR_PANEL)(consolidate_command)
cli.command("reembed", rich_help_panel=OPERATOR_PANEL)(reembed_command)
cli.command("reextract", rich_help_panel=OPERATOR_PANEL)(reextract_command)
cli.add_typer(jobs_app, name="jobs", rich_help_panel=OPERATOR_PANEL)


api_commands.register(cli, OPERATOR_PANEL)


def main() -> None:
    cli()
