"""`engram import FILE --space S`: a large initial load in this process (workers/bulk_import.py), with a progress
bar; the same graph as `engram ingest` of the same records in jobs of `--batch` records."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from tqdm import tqdm

from app.input_options import FormatOption, InputFile, TargetSpace

console = Console()


def import_command(
    file: InputFile,
    space: TargetSpace,
    input_format: FormatOption = None,
    batch: Annotated[int, typer.Option("--batch", "-b", min=1, help="records per batch (an ingest job's worth)")] = 500,
    writers: Annotated[int, typer.Option(min=1, max=16, help="threads writing batches to Neo4j side by side")] = 2,
) -> None:
    """Bulk-load a large file: extraction, embedding and writes in this process, writes overlapping the next batch.

    The whole file is validated first (no limit on records): a malformed record rejects it, naming the record
    and field, and nothing is written. A rerun skips batches already stored and writes nothing new.
    """
    from app.ingest_command import guess_format
    from engram.embedding import get_embedder
    from engram.extraction.factory import ExtractionSettings, create_extractor
    from engram.formats.loading import InvalidInput, parse_payload
    from engram.ids import validate_space
    from engram.settings import get_settings
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
        get_driver(), get_settings().neo4j.database, space, create_extractor(ExtractionSettings()),
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
        f"{report.prescriptions} prescriptions in {report.seconds:.1f} s; seconds per stage: {report.stage_seconds}",
        highlight=False,
    )
