"""`engram ingest FILE` (one job) and `engram import FILE` (any size: one job per user and per MAX_RECORDS_PER_JOB
records), as clients of the API: the file is validated whole here first (nothing is sent when a record is bad), then
sent as ingest requests, and the jobs are followed with a progress bar."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from app.cli.api_client import ApiClient, ApiError, ApiTimeout, expect
from app.cli.client_settings import MAX_REQUEST_BYTES, ClientSettings
from engram.formats.loading import InputFormat, parse_payload
from engram.formats.records import MAX_RECORDS_PER_JOB
from engram.json_depth import loads_bounded

FINISHED = ("SUCCEEDED", "FAILED")


def guess_format(path: Path) -> InputFormat:
    return InputFormat.JSONL if path.suffix.lower() == ".jsonl" else InputFormat.JSON


def load_records(path: Path, input_format: InputFormat | None, user: str | None) -> list[dict[str, Any]]:
    """The file's records as written (validated whole first: InvalidInput names the record and field), each without
    a user of its own given `user`."""
    fmt = input_format or guess_format(path)
    text = path.read_text(encoding="utf-8")
    parse_payload(text, fmt, limit=None)
    if fmt is InputFormat.JSONL:
        raw = [loads_bounded(line) for line in text.splitlines() if line.strip()]
    else:
        data = loads_bounded(text)
        raw = data if isinstance(data, list) else [data]
    if user is not None:
        raw = [r if r.get("user") is not None else {**r, "user": user} for r in raw]
    return raw


def batches(records: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Ingest requests: one user each (the API's rule), at most MAX_RECORDS_PER_JOB records and MAX_REQUEST_BYTES of
    JSON each, in the file's order within a user."""
    by_user: dict[str | None, list[dict[str, Any]]] = {}
    for record in records:
        by_user.setdefault(record.get("user"), []).append(record)
    for group in by_user.values():
        batch: list[dict[str, Any]] = []
        size = 0
        for record in group:
            record_bytes = len(json.dumps(record, ensure_ascii=False).encode("utf-8"))
            if batch and (len(batch) == MAX_RECORDS_PER_JOB or size + record_bytes > MAX_REQUEST_BYTES):
                yield batch
                batch, size = [], 0
            batch.append(record)
            size += record_bytes
        if batch:
            yield batch


def submit(client: ApiClient, batch: list[dict[str, Any]]) -> dict[str, Any]:
    """Queue one batch as an ingest job; the API's refusal raises ApiError."""
    return expect(client.call("ingest", {"records": batch})["ingest"], "Job")


def follow_jobs(client: ApiClient, job_ids: list[str], console: Console) -> list[dict[str, Any]]:
    """Poll the jobs until every one has finished, with one progress bar over all of them; their last states."""
    settings = ClientSettings()
    latest: dict[str, dict[str, Any]] = {}
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
        TextColumn("{task.fields[detail]}"), TimeElapsedColumn(), console=console, transient=False,
    ) as progress:  # fmt: skip
        bar = progress.add_task("ingest", total=len(job_ids), detail="queued")
        while True:
            for job_id in job_ids:
                if latest.get(job_id, {}).get("state") not in FINISHED:
                    try:
                        latest[job_id] = expect(client.call("job", {"id": job_id})["job"], "Job")
                    except ApiTimeout:  # the job runs on whatever a slow answer: look again
                        latest.setdefault(job_id, {"id": job_id, "state": "QUEUED", "stage": "", "fraction": 0.0})
            finished = sum(job["state"] in FINISHED for job in latest.values())
            running = [j for j in latest.values() if j["state"] not in FINISHED]
            detail = f"{finished}/{len(job_ids)} jobs done" + (f", {running[0]['stage']}" if running else "")
            progress.update(bar, completed=sum(float(j["fraction"]) for j in latest.values()), detail=detail)
            if not running:
                return [latest[job_id] for job_id in job_ids]
            time.sleep(settings.poll_s)


def summary(prefix: str, jobs: list[dict[str, Any]]) -> str:
    """What the jobs wrote, added up, and the errors of those that failed."""
    counts: dict[str, int] = {}
    for job in jobs:
        for name, value in (job.get("counts") or {}).items():
            if isinstance(value, int):
                counts[name] = counts.get(name, 0) + value
    c = counts.get
    text = (
        f"{prefix}: {c('sources', 0)} sources, {c('episodes', 0)} episodes, {c('propositions', 0)} propositions, "
        f"{c('concepts', 0)} concepts ({c('new_concepts', 0)} new), {c('intents', 0)} intents, "
        f"{c('prescriptions', 0)} prescriptions"
    )
    failed = [f"job {j['id']} failed: {j['error']}" for j in jobs if j["state"] == "FAILED"]
    return "\n".join([text, *failed])


def send_all(client: ApiClient, records: list[dict[str, Any]], console: Console) -> list[dict[str, Any]]:
    """Queue every batch, then follow the jobs; the jobs' last states. A refused batch stops the sending (those
    queued before it run on: a rerun writes nothing twice, every write being idempotent)."""
    queued: list[str] = []
    for batch in batches(records):
        try:
            job = submit(client, batch)
        except ApiError as exc:
            done = f" ({len(queued)} job(s) queued before it keep running)" if queued else ""
            raise ApiError(f"{exc}{done}") from exc
        queued.append(job["id"])
        user = batch[0].get("user")
        owner = f"user {user!r}" if user is not None else "the shared memory"
        console.print(f"job {job['id']}: {len(batch)} record(s) for {owner}", highlight=False)
    started = time.perf_counter()
    jobs = follow_jobs(client, queued, console)
    console.print(f"{len(jobs)} job(s) finished in {time.perf_counter() - started:.1f} s", highlight=False)
    return jobs
