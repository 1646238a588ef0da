"""What the package ships besides code, found through importlib.resources so that an installed wheel runs as a
checkout does: the Cypher statements (`cypher`), the GraphQL operations the CLI sends (`operations`) and the built
inspector (`inspector`).

In a checkout each is a link to the folder the repository keeps it in (cypher/, graphql/operations, web/dist), so the
editable install, the TypeScript client's code generator and the tests read the same files; a wheel holds copies
(pyproject.toml's package-data follows the links).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

CYPHER = "cypher"
OPERATIONS = "operations"
INSPECTOR = "inspector"


def asset_dir(name: str) -> Path:
    """The folder of one of the shipped assets. A folder on disk: the package is installed as files (a wheel unpacked
    by pip, or the checkout), never run from a zip."""
    found = files(__name__) / name
    if not isinstance(found, Path):
        raise RuntimeError(f"engram's {name} is not on disk ({found!r}): install the package unzipped (pip install)")
    return found
