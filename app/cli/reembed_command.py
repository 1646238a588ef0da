"""`engram reembed --space S [--user U]`: the operator re-embeds a memory space with this process's embedder
(ENGRAM_EMBEDDING_* settings), in Neo4j directly, with a progress bar; a run stopped anywhere resumes where it
stopped (graph/reembed.py, docs/embedding.md)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

console = Console()


def reembed_command(
    space: Annotated[str, typer.Option("--space", "-s", help="the space to re-embed")],
    user: Annotated[str | None, typer.Option("--user", "-u", help="a user's memory in the space")] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="stop after about this many nodes (run again to go on)")
    ] = None,
    page: Annotated[int, typer.Option(min=1, max=5000, help="nodes per transaction")] = 256,
) -> None:
    """Re-embed a memory space written with another embedder (backend, ONNX variant or model) with this one.

    Writes to the space are refused until it finishes and recall says a re-embedding is under way; a run stopped
    (Ctrl-C, a crash, --limit) resumes after the last page written when run again with the same settings.
    """
    from tqdm import tqdm

    from app.cli.operator_space import drop_cached, memory_space_or_exit
    from engram.embedder_identity import identity_of
    from engram.embedding import get_embedder
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.reembed import Reembedder
    from graph.scoped import ScopedMemory

    settings = get_settings()
    target = memory_space_or_exit(space, user, console)
    driver = get_driver()
    if not ScopedMemory(driver, settings.neo4j.database).exists(target):
        console.print(f"[red]error:[/red] no memory space {target!r}", highlight=False)
        raise typer.Exit(1)
    identity = identity_of(settings.embedding)
    reembedder = Reembedder(driver, settings.neo4j.database, target, get_embedder().encode, identity)
    cursor, done = reembedder.position()
    with tqdm(total=reembedder.total(), initial=done, desc=f"reembed {target}", unit=" nodes") as bar:
        report = reembedder.run(bar.update, limit, page)
    if report.already:
        console.print(f"'{target}' already holds vectors of {identity.describe()}: nothing to do", highlight=False)
        return
    resumed = f" (resumed after {cursor})" if cursor else ""
    if not report.finished:
        console.print(f"re-embedded {report.nodes} nodes of '{target}'{resumed}; stopped: run again to go on")
        return
    drop_cached(target)  # every process reloads the space's keys and phrase vectors
    console.print(
        f"re-embedded {report.nodes} nodes of '{target}'{resumed}; it now holds vectors of {identity.describe()}",
        highlight=False,
    )
