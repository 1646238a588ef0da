"""Which embedder wrote a memory space (engram/embedder_identity.py), read from its Space node, and the check recall
makes before it compares a query's vector with the space's (docs/embedding.md, "Which vectors may share a space")."""

from __future__ import annotations

from dataclasses import dataclass

import neo4j

from engram.embedder_identity import EmbedderIdentity
from graph.cypher import load


@dataclass(frozen=True)
class SpaceEmbedder:
    recorded: EmbedderIdentity | None  # None: written before spaces recorded it, or nothing written yet
    reembed_to: str | None  # the family a re-embedding under way (or interrupted) gives the space
    cursor: str | None  # how far it got: "<label>:<id>" of the last node written


class EmbedderMismatch(Exception):
    """The space's vectors come from another embedder family than the one asking (or are being re-embedded)."""


def space_embedder(driver: neo4j.Driver, database: str, space: str) -> SpaceEmbedder:
    records, _, _ = driver.execute_query(
        load("embedder/space_embedder"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    row = records[0]
    recorded = None
    if row["family"] is not None:
        recorded = EmbedderIdentity(str(row["backend"]), str(row["variant"]), str(row["model"]))
    return SpaceEmbedder(recorded, row["reembed_to"], row["cursor"])


def reembed_command(space: str, user: str | None) -> str:
    return f"engram reembed --space {space}" + (f" --user {user}" if user is not None else "")


def check_embedder(
    driver: neo4j.Driver, database: str, memory_space: str, mine: EmbedderIdentity, command: str
) -> None:
    """Raise EmbedderMismatch, naming both embedders and `command` (the reembed command line for the space), when
    the space's vectors are not of `mine`'s family or a re-embedding of it has not finished."""
    found = space_embedder(driver, database, memory_space)
    if found.reembed_to is not None:
        raise EmbedderMismatch(
            f"space {memory_space!r} is being re-embedded (to family {found.reembed_to}) and its vectors are mixed "
            f"until it finishes: run `{command}` to finish it"
        )
    if found.recorded is not None and found.recorded.family != mine.family:
        raise EmbedderMismatch(
            f"space {memory_space!r} holds vectors of embedder {found.recorded.describe()}; this server embeds with "
            f"{mine.describe()}: their vectors cannot be compared. Re-embed the space with the server's embedder "
            f"(`{command}`, with the server's ENGRAM_EMBEDDING_* settings) or run the server with the space's"
        )
