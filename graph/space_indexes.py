"""Indexes of a space's own, for large spaces.

Neo4j 5.26 cannot filter an index by space: recall asks a shared index for more rows until enough are of its
space, so a small space beside a large one fetches many times the rows it keeps (a smaller space's dense search
can be slower than a larger one's; the full-text search and the concept search likewise), and the cost of one
tenant's recall grows with the others' data (figures in docs/tuning.md). A space past a size threshold gets a label
of its own on its propositions, episodes and concepts, a vector index on each, and a full-text index on its
propositions' and episodes' text: its searches fetch about k rows. Small spaces are scanned exactly or searched
with the query scoped to them (`graph/recall/neo4j_searcher.py`), so the shared indexes serve the spaces in between, and
the moment a space is given its own.

Their speed also rests on Neo4j merging vector index segments (each segment is a separate HNSW search), which
`infra/neo4j/conf/neo4j.conf` turns on.

`dedicate` (run by consolidation) creates the indexes, has writes label new nodes (`label_written`), labels what
is stored, and only then marks the space ready for recall; each step is idempotent, and a re-run labels what a
write racing the first run left out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import neo4j

from engram.scope import validate_memory_space
from graph.cypher import load
from graph.reads import timed

# From this many propositions or episodes a space gets its own indexes (below it, recall scans a space of up to
# 5,000 exactly, and the shared indexes serve the rest).
DEDICATE_FROM = 10_000
# Building the indexes with their segments merged took 9 minutes for a 100k space here; a 1M one takes hours.
INDEX_ONLINE_TIMEOUT_S = 4 * 3600

# Kind (as recall names it) -> the node label and the singular used in index names.
_KINDS = {
    "propositions": ("Proposition", "proposition"),
    "episodes": ("Episode", "episode"),
    "concepts": ("Concept", "concept"),
}
_FULLTEXT_KINDS = ("propositions", "episodes")  # concepts are found by key or by vector, never by text


@dataclass(frozen=True)
class OwnIndex:
    name: str
    kind: str  # propositions / episodes / concepts
    label: str  # the space's label for that kind
    ddl: str  # the space_indexes/ statement that creates it


@dataclass(frozen=True)
class SpaceIndexes:
    """The labels a space's searchable nodes carry and the names of its indexes. One label per node kind: Neo4j
    keeps one index of a type per label and property."""

    digest: str

    @classmethod
    def of(cls, space: str) -> SpaceIndexes:
        # Hex digits of a hash: safe to write into DDL, which takes no parameters for names.
        return cls(hashlib.sha256(space.encode("utf-8")).hexdigest()[:20])

    def label(self, kind: str) -> str:
        return f"Space{_KINDS[kind][0]}s_{self.digest}"

    def vector(self, kind: str) -> str | None:
        """The space's vector index for `kind`; None where it has none (prescriptions: the shared one serves)."""
        return f"{_KINDS[kind][1]}_embedding_{self.digest}" if kind in _KINDS else None

    def fulltext(self, kind: str) -> str | None:
        """The space's full-text index for `kind`; None where it has none."""
        return f"{_KINDS[kind][1]}_text_{self.digest}" if kind in _FULLTEXT_KINDS else None

    def indexes(self) -> list[OwnIndex]:
        """Every index the space gets, in the order `dedicate` creates them."""
        found = []
        for kind in _KINDS:
            for name, ddl in (
                (self.vector(kind), "create_vector_index"),
                (self.fulltext(kind), "create_fulltext_index"),
            ):
                if name:
                    found.append(OwnIndex(name, kind, self.label(kind), ddl))
        return found

    def labels(self) -> dict[str, str]:
        """The parameters the labelling statements take."""
        return {f"{_KINDS[kind][1]}_label": self.label(kind) for kind in _KINDS}


def _ddl(name: str, index: str, label: str = "") -> str:
    return load(f"space_indexes/{name}").replace("{index}", index).replace("{label}", label)


def dedicate(driver: neo4j.Driver, database: str, space: str, threshold: int = DEDICATE_FROM) -> bool:
    """Gives the space indexes of its own once it holds `threshold` propositions or episodes; returns whether it
    has them."""
    validate_memory_space(space)
    names = SpaceIndexes.of(space)
    records, _, _ = driver.execute_query(
        load("space_indexes/size"),
        space=space,
        threshold=threshold,
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    )
    if not records[0]["large"]:
        return False
    with driver.session(database=database) as session:
        for index in names.indexes():
            session.run(_ddl(index.ddl, index.name, index.label)).consume()
        session.run(load("space_indexes/start_labelling"), space=space).consume()
        # Auto-commit: the statement commits in batches of its own.
        # Both run for as long as a large space needs, past the server's db.transaction.timeout (15 min).
        labelling = timed(load("space_indexes/label_existing"), INDEX_ONLINE_TIMEOUT_S)
        session.run(labelling, {"space": space, **names.labels()}).consume()
        waiting = timed(load("space_indexes/await_index"), INDEX_ONLINE_TIMEOUT_S + 60)
        for index in names.indexes():
            session.run(waiting, index=index.name, timeout_s=INDEX_ONLINE_TIMEOUT_S).consume()
        session.run(load("space_indexes/mark_ready"), space=space).consume()
    return True


def label_written(
    tx: neo4j.ManagedTransaction,
    space: str,
    *,
    propositions: Sequence[str] = (),
    episodes: Sequence[str] = (),
    concepts: Sequence[str] = (),
) -> None:
    """In a write's transaction: the new nodes (by id) join the space's own indexes, if it has (or is getting)
    them."""
    tx.run(
        load("ingest/label_written"),
        {
            "space": space,
            "proposition_ids": list(propositions),
            "episode_ids": list(episodes),
            "concept_ids": list(concepts),
            **SpaceIndexes.of(space).labels(),
        },
    )


def drop(driver: neo4j.Driver, database: str, space: str) -> None:
    """Drops the space's own indexes, if it has any (the space's nodes are deleted apart)."""
    with driver.session(database=database) as session:
        for index in SpaceIndexes.of(space).indexes():
            session.run(_ddl("drop_index", index.name)).consume()
