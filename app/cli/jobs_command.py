"""`engram jobs purge`: cancel unfinished ingest jobs (docs/fairness.md)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

jobs_app = typer.Typer(help="Ingest jobs in the worker queue.", no_args_is_help=True)
console = Console()


@jobs_app.command("purge")
def purge_command(
    space: Annotated[
        str | None,
        typer.Option(
            "--space", "-s", help="cancel this space's jobs, its users' included (or one user's: SPACE/<hex>)"
        ),
    ] = None,
    every_space: Annotated[bool, typer.Option("--all", help="cancel the jobs of every space")] = False,
) -> None:
    """Cancel every unfinished ingest job of a space, its users' jobs included (or of all): each fails with a PURGED
    error, its payload and its space's charge are released, a write stage running stops after its current part, and a
    stage a worker already holds runs nothing when redelivered. Use this rather than purging the Celery queues, which
    hold only the stages already handed a worker slot. To delete what jobs wrote, use forget or deleteSpace: they stop
    the jobs of what they delete themselves."""
    from engram.scope import validate_memory_space
    from workers.tasks.job_stops import purge_jobs

    if (space is None) == (not every_space):
        console.print("[red]error:[/red] give either --space SPACE or --all", highlight=False)
        raise typer.Exit(2)
    try:
        cancelled = purge_jobs(validate_memory_space(space) if space is not None else None)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    console.print(f"cancelled {len(cancelled)} unfinished job(s)" + (f" of space {space!r}" if space else ""))
