"""`engram consolidate --space S`: run every consolidation job of a space and print the before/after report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from graph.consolidation.report import ConsolidationReport

console = Console()


def print_report(report: ConsolidationReport) -> None:
    table = Table(title=f"consolidation of '{report.space}' ({report.seconds:.1f} s)")
    table.add_column("figure")
    table.add_column("before", justify="right")
    table.add_column("after", justify="right")
    before, after = report.before.model_dump(), report.after.model_dump()
    for name in before:
        table.add_row(name.replace("_", " "), str(before[name]), str(after[name]))
    console.print(table)
    console.print(
        f"duplicates found {report.duplicates_found} (merged {report.duplicates_merged}, updated "
        f"{report.facts_updated}, {report.duplicate_candidates} candidate pairs judged); conflicts resolved "
        f"{report.conflicts_resolved} in {report.conflicts_found} group(s); aliases added {report.aliases_added}; "
        f"intents merged {report.intents_merged}; late proofs carried {report.late_proofs_carried}; "
        f"dimensions {report.dimensions}; own indexes {'yes' if report.own_indexes else 'no'}",
        highlight=False,
    )
    console.print(f"seconds per step: {report.step_seconds}", highlight=False)


def consolidate_command(
    space: Annotated[str, typer.Option("--space", "-s", help="memory space to consolidate")],
    worker: Annotated[
        bool, typer.Option("--worker/--here", help="run it as a Celery task on the cpu queue, or in this process")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    timeout: Annotated[float, typer.Option(help="seconds to wait for the worker")] = 3600,
) -> None:
    """Merge duplicates, resolve conflicts, link aliases, merge intents, reweigh associations, find dimensions."""
    from engram.ids import validate_space
    from workers.tasks.consolidate import ConsolidationOutcome, consolidate_locked, submit_consolidation

    try:
        validate_space(space)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    if worker:
        from workers.celery_app import app as celery_app

        result = celery_app.AsyncResult(submit_consolidation(space))
        outcome = ConsolidationOutcome.model_validate(result.get(timeout=timeout))
    else:
        outcome = consolidate_locked(space, wait_s=timeout)
    if outcome.skipped or outcome.report is None:
        console.print(f"another consolidation of '{space}' is running; skipped")
        raise typer.Exit(1)
    if as_json:
        print(outcome.report.model_dump_json(indent=2))
    else:
        print_report(outcome.report)
