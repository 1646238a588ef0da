"""What the operator's commands that rewrite a memory space in Neo4j directly share (`engram import --bulk` of a
vectors file, `engram reembed`): the memory space named by --space and --user, and telling every process to drop
what it cached of the space afterwards."""

from __future__ import annotations

import typer
from rich.console import Console


def memory_space_or_exit(space: str, user: str | None, console: Console) -> str:
    """The memory space of `user` in `space`; a bad name prints why and exits 2."""
    from engram.ids import validate_space
    from engram.scope import memory_space

    try:
        return memory_space(validate_space(space), user)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


def drop_cached(space: str) -> None:
    """Every process reloads the space's concept keys and phrase vectors (its vectors or graph changed under them)."""
    from workers.resources import get_redis
    from workers.scope_deletion import ScopeText

    ScopeText(get_redis()).forgotten(space)
