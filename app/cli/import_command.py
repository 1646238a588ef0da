"""`engram ingest FILE` and `engram import FILE` through the API (app/cli/ingest_command.py), and `engram import --bulk
FILE --space S`, the operator's large initial load in this process (workers/bulk_import.py), with a progress bar; the
same graph as the worker's ingest of the same records in jobs of `--batch` records."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from app.cli.client_options import KeyOption, SpaceCheck, UrlOption, UserOption, failures, open_client, where
from app.cli.input_options import FormatOption, InputFile

console = Console()
BULK_PANEL = "Operator (--bulk)"


def ingest_command(
    file: InputFile,
    user: UserOption = None,
    input_format: FormatOption = None,
    wait: Annotated[bool, typer.Option("--wait/--no-wait", help="follow the job until it finishes")] = True,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Ingest a file of conversations, documents or trajectories as one job, with a progress bar and a summary.

    The whole file is validated first: a malformed record rejects it, naming the record and field, and nothing is
    sent. One job holds one user's records (--user fills in records that name none), at most MAX_RECORDS_PER_JOB;
    `engram import` takes any file.
    """
    from app.cli.ingest_command import batches, follow_jobs, load_records, submit, summary

    with failures(console):
        records = load_records(file, input_format, user)  # a bad record: InvalidInput, a ValueError (exit 2)
        jobs = list(batches(records))
        if len(jobs) > 1:
            raise ValueError(
                f"{len(records)} records need {len(jobs)} jobs (one per user and per batch): use `engram import`"
            )
        with open_client(url, api_key, space) as client:
            job = submit(client, records)
            owner = where(records[0].get("user") if records else user, space)
            console.print(f"job {job['id']}: {len(records)} record(s) queued for {owner}", highlight=False)
            if not wait:
                return
            done = follow_jobs(client, [job["id"]], console)
        console.print(summary(f"ingested into {owner}", done), highlight=False)
        if done[0]["state"] != "SUCCEEDED":
            raise typer.Exit(1)


def import_command(
    file: InputFile,
    user: UserOption = None,
    input_format: FormatOption = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
    bulk: Annotated[
        bool,
        typer.Option(
            "--bulk",
            help="operator: load the file in this process, straight into Neo4j (needs --space, not the API)",
            rich_help_panel=BULK_PANEL,
        ),
    ] = False,
    space: Annotated[
        str | None,
        typer.Option(
            "--space", "-s", help="with --bulk: the space to load into; else: make sure the key opens this space"
        ),
    ] = None,
    batch: Annotated[
        int,
        typer.Option("--batch", "-b", min=1, help="with --bulk: records per batch", rich_help_panel=BULK_PANEL),
    ] = 500,
    writers: Annotated[
        int,
        typer.Option(
            min=1, max=16, help="with --bulk: threads writing to Neo4j side by side", rich_help_panel=BULK_PANEL
        ),
    ] = 2,
) -> None:
    """Import a JSONL export (`engram export`) or any ingest file through the API: one ingest job per user and per
    MAX_RECORDS_PER_JOB records, followed with a progress bar.

    The whole file is validated first (any number of records): a malformed record rejects it, naming the record and
    field, and nothing is sent. Every write is idempotent: a rerun writes nothing new. With --bulk (operator), the
    file is loaded in this process straight into the space's graph.
    """
    from engram.vectors_header import is_vectors_file

    if bulk:
        if space is None:
            console.print("[red]error:[/red] --bulk needs --space (the space to load into)", highlight=False)
            raise typer.Exit(2)
        if is_vectors_file(file):
            _vectors_import(file, space, user, writers)
        else:
            _bulk_import(file, space, input_format, batch, writers)
        return
    if is_vectors_file(file):
        console.print(
            "[red]error:[/red] a vectors file (engram export --vectors) loads with --bulk --space S on the stack's "
            "machine; import the export's JSONL through the API instead",
            highlight=False,
        )
        raise typer.Exit(2)
    from app.cli.ingest_command import load_records, send_all, summary

    with failures(console):
        records = load_records(file, input_format, user)  # a bad record: InvalidInput, a ValueError (exit 2)
        users = {r.get("user") for r in records}
        console.print(f"{len(records)} record(s) valid, for {len(users)} user(s)", highlight=False)
        with open_client(url, api_key, space) as client:
            jobs = send_all(client, records, console)
        console.print(summary(f"imported {len(records)} record(s)", jobs), highlight=False)
        if any(job["state"] != "SUCCEEDED" for job in jobs):
            raise typer.Exit(1)


def _vectors_import(file: InputFile, space: str, user: str | None, writers: int) -> None:
    """An export's vectors file into its (empty) memory space: no model, no extraction; indexes online at the end."""
    from tqdm import tqdm

    from app.cli.operator_space import drop_cached, memory_space_or_exit
    from engram.embedder_identity import identity_of
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.vector_import import VectorImporter, VectorsFileError

    settings = get_settings()
    target = memory_space_or_exit(space, user, console)
    importer = VectorImporter(get_driver(), settings.neo4j.database, target, identity_of(settings.embedding), writers)
    bars: dict[str, tqdm[None]] = {}

    def progress(stage: str, written: int) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(desc=f"import {stage}", unit=" rows")
        bar.update(written - bar.n)

    try:
        report = importer.run(file, progress)
    except VectorsFileError as exc:
        console.print(f"[red]error:[/red] {exc}; nothing written", highlight=False)
        raise typer.Exit(2) from exc
    finally:
        for bar in bars.values():
            bar.close()
    drop_cached(target)  # processes that knew the space before reload its keys and phrase vectors
    nodes = ", ".join(f"{n} {label}" for label, n in report.nodes.items())
    resumed = " (resumed)" if report.resumed else ""
    console.print(
        f"imported into '{target}'{resumed}: {nodes}; {report.relationships} relationships; indexes online"
        f"{' (its own)' if report.dedicated else ''}; seconds per stage: {report.seconds}",
        highlight=False,
    )


def _bulk_import(file: InputFile, space: str, input_format: FormatOption, batch: int, writers: int) -> None:
    """Extraction, embedding and writes in this process, writes overlapping the next batch; a rerun skips batches
    already stored and writes nothing new."""
    from tqdm import tqdm

    from app.cli.ingest_command import guess_format
    from engram.embedding import get_embedder
    from engram.extraction.factory import ExtractionSettings, create_extractor
    from engram.formats.loading import InvalidInput, parse_payload
    from engram.ids import validate_space
    from engram.settings import get_settings
    from graph.concept_keys.tries import create_key_namer
    from graph.driver import get_driver
    from workers.bulk_import import BulkImporter
    from workers.resources import get_redis

    try:
        validate_space(space)
        records = parse_payload(file.read_text(encoding="utf-8"), input_format or guess_format(file), limit=None)
    except (InvalidInput, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    console.print(f"{len(records)} record(s) valid; importing into space '{space}' in batches of {batch}")
    importer = BulkImporter(
        get_driver(), get_settings().neo4j.database, space, create_extractor(ExtractionSettings(), create_key_namer),
        get_embedder().encode, get_redis(), writers=writers,
    )  # fmt: skip
    with tqdm(total=len(records), desc=f"import {space}", unit="record") as bar:

        def progress(done: int, propositions: int) -> None:
            bar.update(done - bar.n)
            bar.set_postfix(propositions=propositions, refresh=False)

        report = importer.run(records, batch, progress)
    skipped = f" ({report.skipped_records} already stored, skipped)" if report.skipped_records else ""
    console.print(
        f"imported into '{space}': {report.records} records{skipped}, {report.sources} sources, {report.episodes} "
        f"episodes, {report.propositions} propositions, {report.new_concepts} new concepts, {report.intents} intents, "
        f"{report.prescriptions} prescriptions, {report.facts_revised} earlier statements revised in "
        f"{report.seconds:.1f} s; seconds per stage: {report.stage_seconds}",
        highlight=False,
    )
