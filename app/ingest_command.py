"""`engram ingest`: submit a file to the ingest pipeline and follow its progress."""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from engram.formats.loading import InputFormat, parse_payload
from workers.jobs import JobState, JobStatus
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest


def guess_format(path: Path) -> InputFormat:
    return InputFormat.JSONL if path.suffix.lower() == ".jsonl" else InputFormat.JSON


def follow(job_id: str, console: Console, poll_s: float = 0.5, timeout_s: float = 3600) -> JobStatus:
    store = get_job_store()
    deadline = time.monotonic() + timeout_s
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
        TextColumn("{task.fields[detail]}"), TimeElapsedColumn(), console=console, transient=False,
    ) as progress:  # fmt: skip
        bar = progress.add_task("ingest", total=1.0, detail="queued")
        while True:
            status = store.status(job_id)
            detail = f"{status.stage} {status.done}/{status.total}" if status.total else status.stage or status.state
            progress.update(bar, completed=status.fraction, detail=detail)
            if status.state in (JobState.SUCCEEDED, JobState.FAILED):
                return status
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} still {status.state} after {timeout_s:.0f} s")
            time.sleep(poll_s)


def ingest_file(path: Path, space: str, input_format: InputFormat | None, console: Console) -> JobStatus:
    records = parse_payload(path.read_text(encoding="utf-8"), input_format or guess_format(path))
    job_id = submit_ingest(space, records)
    console.print(f"job {job_id}: {len(records)} record(s) queued for space '{space}'")
    started = time.perf_counter()
    status = follow(job_id, console)
    seconds = time.perf_counter() - started
    if status.state is JobState.FAILED:
        console.print(f"[red]job {job_id} failed[/red]: {status.error}")
        return status
    c = status.counts
    console.print(
        f"ingested into '{space}': {c.get('sources', 0)} sources, {c.get('episodes', 0)} episodes, "
        f"{c.get('propositions', 0)} propositions, {c.get('concepts', 0)} concepts "
        f"({c.get('new_concepts', 0)} new), {c.get('intents', 0)} intents, {c.get('prescriptions', 0)} prescriptions "
        f"in {seconds:.1f} s"
    )
    return status
