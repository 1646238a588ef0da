"""`engram jobs purge`: cancel unfinished ingest jobs (docs/fairness.md)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

jobs_app = typer.Typer(help="Ingest jobs in the worker queue.", no_args_is_help=True)
console = Console()


@jobs_app.command("purge")
def purge_command(
    space: Annotated[str | None, typer.Option("--space", "-s", help="cancel this space's jobs")] = None,
    every_space: Annotated[bool, typer.Option("--all", help="cancel the jobs of every space")] = False,
) -> None:
    """Cancel every unfinished ingest job of a space (or of all): each fails with a PURGED error, its payload and its
    space's charge are released, and a stage a worker already holds runs nothing when redelivered. Use this rather
    than purging the Celery queues, which hold only the stages already handed a worker slot."""
    from engram.ids import validate_space
    from workers.tasks.ingest import purge_jobs

    if (space is None) == (not every_space):
        console.print("[red]error:[/red] give either --space SPACE or --all", highlight=False)
        raise typer.Exit(2)
    try:
        cancelled = purge_jobs(validate_space(space) if space is not None else None)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    console.print(f"cancelled {len(cancelled)} unfinished job(s)" + (f" of space {space!r}" if space else ""))
