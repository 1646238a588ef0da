"""The command-line parameters of the commands that read an input file (`engram ingest`, `engram import`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engram.formats.loading import InputFormat

InputFile = Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True, help="JSON or JSONL file")]
TargetSpace = Annotated[str, typer.Option("--space", "-s", help="memory space to write into (a-z, 0-9, _ . -)")]
FormatOption = Annotated[
    InputFormat | None, typer.Option("--format", "-f", help="default: jsonl for *.jsonl, else json")
]
