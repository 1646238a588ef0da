"""`engram`: run and inspect the local Engram stack."""

from __future__ import annotations

import subprocess
from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console

from app import api_commands
from app.consolidate_command import consolidate_command
from app.import_command import import_command
from app.input_options import FormatOption, InputFile, TargetSpace
from app.jobs_command import jobs_app
from app.mcp_command import mcp_command
from engram.settings import PROJECT_ROOT, get_settings

cli = typer.Typer(
    help="Engram: long-term memory for LLM agents on Neo4j. Manage the local stack and its data.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()


def _stack(action: str) -> int:
    return subprocess.call(["bash", str(PROJECT_ROOT / "infra" / "stack.sh"), action])


@cli.command()
def up() -> None:
    """Start Neo4j (and apply schema migrations), Redis, a Celery worker and the GraphQL API on 127.0.0.1."""
    raise typer.Exit(_stack("up"))


@cli.command()
def down() -> None:
    """Stop the API, the worker, Redis and Neo4j started by `engram up`."""
    raise typer.Exit(_stack("down"))


@cli.command()
def status() -> None:
    """Say which of Neo4j, Redis, the worker and the API are running (exit 3 if any is not)."""
    raise typer.Exit(_stack("status"))


@cli.command()
def migrate() -> None:
    """Apply the versioned schema files in cypher/schema/ (idempotent)."""
    from graph.driver import get_driver
    from graph.migrations import migrate as apply_migrations

    settings = get_settings()
    applied = apply_migrations(get_driver(), settings.neo4j.database)
    console.print(f"schema migrations applied now: {applied or 'none (schema up to date)'}")


@cli.command()
def ingest(
    file: InputFile,
    space: TargetSpace,
    input_format: FormatOption = None,
) -> None:
    """Ingest conversations, documents or trajectories through the worker, with a progress bar and a summary.

    The whole file is validated first: a malformed record rejects the job, naming the record and field,
    and nothing is written.
    """
    from app.ingest_command import ingest_file
    from engram.formats.loading import InvalidInput
    from engram.ids import validate_space

    try:
        validate_space(space)
        status = ingest_file(file, space, input_format, console)
    except (InvalidInput, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    raise typer.Exit(0 if status.state == "succeeded" else 1)


@cli.command()
def recall(
    query: Annotated[str, typer.Argument(help="what to remember, in plain words")],
    space: Annotated[str, typer.Option("--space", "-s", help="memory space to recall from")],
    budget: Annotated[int, typer.Option(min=16, max=32_768, help="token budget of the returned text")] = 512,
    hops: Annotated[int, typer.Option(min=1, max=4, help="hop limit (1-4)")] = 2,
    limit: Annotated[int, typer.Option(min=1, max=200, help="most items to return")] = 10,
    trace: Annotated[bool, typer.Option("--trace/--no-trace", help="print the explanation trace")] = False,
    asker: Annotated[
        str | None, typer.Option(help='who asks, as they speak in memory: the query\'s "I", "me", "my"')
    ] = None,
    addressee: Annotated[
        str | None, typer.Option(help='who is asked, as they speak in memory: the query\'s "you", "your"')
    ] = None,
    now: Annotated[
        datetime | None,
        typer.Option(help='when the query is asked (ISO 8601): its "two weeks ago" or "last weekend" is read from it'),
    ] = None,
    min_relevance: Annotated[
        float | None,
        typer.Option(
            min=0.0, max=1.0, help="leave out items below this relevance, 0-1 (default: ENGRAM_RECALL_MIN_RELEVANCE)"
        ),
    ] = None,
) -> None:
    """Recall knowledge for QUERY: items with scores and the episodes that prove them."""
    from pydantic import ValidationError

    from app.recall_command import print_recall
    from engram.ids import validate_space
    from graph.recall.models import RecallRequest

    try:
        validate_space(space)
        request = RecallRequest(
            space=space,
            query=query,
            token_budget=budget,
            hop_limit=hops,
            limit=limit,
            asker=asker,
            addressee=addressee,
            now=now,
            min_relevance=min_relevance,
        )
        print_recall(console, request, trace)
    except (ValueError, ValidationError) as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


@cli.command()
def browser(
    space: Annotated[str, typer.Option("--space", "-s", help="memory space to explore")],
    query: Annotated[str | None, typer.Option(help="print only this exploration query (file name, no .cypher)")] = None,
    style: Annotated[bool, typer.Option("--style", help="print only the :style command")] = False,
) -> None:
    """Explore SPACE in Neo4j Browser: the URL, the parameters, the style and the queries of cypher/browser/."""
    from app.browser_command import print_browser
    from engram.ids import validate_space
    from graph.driver import get_driver

    try:
        validate_space(space)
        print_browser(console, get_settings(), get_driver(), space, query, style)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


@cli.command()
def doctor() -> None:
    """Check every part Engram needs and say how to fix what is missing (exit 1 if any check fails)."""
    from app.doctor import all_checks

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


cli.command("import")(import_command)
cli.command("consolidate")(consolidate_command)
cli.command("mcp")(mcp_command)
cli.add_typer(jobs_app, name="jobs")


api_commands.register(cli)


def main() -> None:
    cli()
