"""Loads Cypher statements from the versioned `.cypher` files under `cypher/`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

CYPHER_DIR = Path(__file__).resolve().parent.parent / "cypher"


@cache
def load(name: str) -> str:
    """The text of `cypher/<name>.cypher`, e.g. `load("ingest/merge_episodes")`."""
    path = CYPHER_DIR / f"{name}.cypher"
    if not path.is_file():
        raise FileNotFoundError(f"no Cypher statement file {path}")
    return path.read_text(encoding="utf-8").strip()


def split_statements(text: str) -> list[str]:
    """Split a multi-statement file on `;` at line ends, dropping `//` comment lines."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    statements = (stmt.strip().rstrip(";").strip() for stmt in "\n".join(lines).split(";\n"))
    return [stmt for stmt in statements if stmt]
