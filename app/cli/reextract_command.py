"""`engram reextract --space S [--user U]`: the operator has a memory space's stored episodes drawn into knowledge
again by this version of extraction (facts, slots, supersession: engram/extraction/base.py EXTRACTION_VERSION), as
ingest jobs followed with a progress bar.

The space's sources are read back as ingest records (graph/scoped.py `export_records`, the export's format) and
queued as ordinary ingest jobs: episodes keep their ids and texts, the knowledge an earlier version drew from them is
unlinked and, where nothing else proves it, retired; the new knowledge is written and its supersessions linked as at
ingest. Run twice, the second run finds every episode drawn by this version and changes nothing. A user's corrections
stay."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.console import Console

console = Console()
PAGE = 200  # sources read per page


def reextract_command(
    space: Annotated[str, typer.Option("--space", "-s", help="the space whose knowledge to draw again")],
    user: Annotated[str | None, typer.Option("--user", "-u", help="a user's memory in the space")] = None,
    timeout: Annotated[float, typer.Option(min=1, help="seconds to wait for each job")] = 3600.0,
) -> None:
    """Draw a memory space's knowledge from its stored episodes again, with this version of extraction.

    Queues ingest jobs of the space's own records (sources, episodes, ids and times as stored), follows them with a
    progress bar and prints what changed. Writes nothing new where the episodes were drawn by this version already.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from app.cli.operator_space import drop_cached, memory_space_or_exit
    from engram.formats.loading import InvalidInput, validate_records
    from engram.formats.records import MAX_RECORDS_PER_JOB
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.scoped import ScopedMemory, export_records
    from workers.jobs import JobState
    from workers.resources import get_job_store
    from workers.tasks.ingest import submit_ingest

    target = memory_space_or_exit(space, user, console)
    memory = ScopedMemory(get_driver(), get_settings().neo4j.database)
    if not memory.exists(target):
        console.print(f"[red]error:[/red] no memory space {target!r}", highlight=False)
        raise typer.Exit(1)
    records = _records(memory, target, user, export_records)
    if not records:
        console.print(f"'{target}' holds no episodes: nothing to draw", highlight=False)
        return
    store = get_job_store()
    before = memory.counts(target)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        for start in range(0, len(records), MAX_RECORDS_PER_JOB):
            batch = records[start : start + MAX_RECORDS_PER_JOB]
            try:
                job_id = submit_ingest(target, validate_records(batch))
            except InvalidInput as exc:  # stored records that no longer validate: say which, change nothing more
                console.print(f"[red]error:[/red] {'; '.join(exc.errors)}", highlight=False)
                raise typer.Exit(1) from exc
            task = progress.add_task(f"reextract {target} ({len(batch)} records)", total=None)
            deadline = time.monotonic() + timeout
            while True:
                status = store.status(job_id)
                progress.update(task, description=f"reextract {target}: {status.stage or 'queued'}",
                                completed=status.done, total=status.total or None)  # fmt: skip
                if status.state in (JobState.SUCCEEDED, JobState.FAILED):
                    break
                if time.monotonic() > deadline:
                    console.print(f"[red]error:[/red] job {job_id} not finished after {timeout:.0f} s")
                    raise typer.Exit(1)
                time.sleep(0.5)
            if status.state is JobState.FAILED:
                console.print(f"[red]error:[/red] job {job_id} failed: {status.error}", highlight=False)
                raise typer.Exit(1)
    drop_cached(target)
    after = memory.counts(target)
    changes = ", ".join(f"{name} {before[name]} -> {after[name]}" for name in after if after[name] != before[name])
    console.print(
        f"drew '{target}' again from {len(records)} records: {changes or 'the same knowledge as before'}",
        highlight=False,
    )


def _records(memory: Any, target: str, user: str | None, export: Any) -> list[dict[str, Any]]:
    from engram.scope import ScopeFilter

    rows: list[dict[str, Any]] = []
    skip = 0
    while True:
        page = memory.export_page(target, ScopeFilter(), skip, PAGE)
        rows.extend(page.rows)
        skip += PAGE
        if skip >= page.total or not page.rows:
            break
    return list(export(rows, user))
