"""Loads Cypher statements from the versioned `.cypher` files under `cypher/` (in the package: engram.assets)."""

from __future__ import annotations

import re
from functools import cache

from engram.assets import CYPHER, asset_dir

CYPHER_DIR = asset_dir(CYPHER)
# A line `// include <name>` stands for the text of `cypher/<name>.cypher`, at the line's indent: a clause several
# statements end with is written once.
_INCLUDE = re.compile(r"^(?P<indent>[ \t]*)// include (?P<name>[\w/]+)[ \t]*$", re.MULTILINE)


@cache
def load(name: str) -> str:
    """The text of `cypher/<name>.cypher` with its includes in place, e.g. `load("ingest/merge_episodes")`."""
    path = CYPHER_DIR / f"{name}.cypher"
    if not path.is_file():
        raise FileNotFoundError(f"no Cypher statement file {path}")
    text = path.read_text(encoding="utf-8").strip()
    return _INCLUDE.sub(lambda m: _included(load(m.group("name")), m.group("indent")), text)


def _included(text: str, indent: str) -> str:
    """An included file's statement at `indent`, without its opening comment (which is about the file)."""
    lines = text.splitlines()
    while lines and lines[0].lstrip().startswith("//"):
        lines.pop(0)
    return "\n".join(indent + line if line else line for line in lines)


def split_statements(text: str) -> list[str]:
    """Split a multi-statement file on `;` at line ends, dropping `//` comment lines."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    statements = (stmt.strip().rstrip(";").strip() for stmt in "\n".join(lines).split(";\n"))
    return [stmt for stmt in statements if stmt]
