"""Vector indexes of a space's own, for large spaces.

Neo4j 5.26 cannot filter a vector index: recall asks the shared index for more rows until enough are of its space,
so a 100k space beside a 1M one fetches ~10x the rows it keeps (95 ms per dense search at 100k, 195 ms at 10k),
and the cost of one tenant's recall grows with the others' data. A space past a size threshold gets a label of
its own on its propositions and one on its episodes, and a vector index on each: its searches fetch about k rows
(16 ms at 100k). Small spaces are scanned exactly instead (`graph/recall/search.py`), so the shared indexes only
serve the spaces in between, and the moment a space is given its own.

`dedicate` (run by consolidation) creates the indexes, has writes label new nodes (`label_written`),
labels what is stored, and only then marks the space ready for recall; each step is idempotent, and a re-run
labels what a write racing the first run left out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import neo4j

from engram.ids import validate_space
from graph.cypher import load

# From this many propositions or episodes a space gets its own vector indexes (below it, recall scans a space of
# up to 5,000 exactly, and the shared index serves the rest).
DEDICATE_FROM = 10_000
INDEX_ONLINE_TIMEOUT_S = 3600  # building the index of a 1M-proposition space takes minutes


@dataclass(frozen=True)
class SpaceVectorIndexes:
    """The labels a space's searchable nodes carry, and the names of its vector indexes (one per label: Neo4j
    keeps one index per label and property)."""

    proposition_label: str
    episode_label: str
    propositions: str
    episodes: str

    @classmethod
    def of(cls, space: str) -> SpaceVectorIndexes:
        # Hex digits of a hash: safe to write into DDL, which takes no parameters for names.
        digest = hashlib.sha256(space.encode("utf-8")).hexdigest()[:20]
        return cls(
            f"SpacePropositions_{digest}",
            f"SpaceEpisodes_{digest}",
            f"proposition_embedding_{digest}",
            f"episode_embedding_{digest}",
        )

    def by_label(self) -> dict[str, str]:
        """Index name per searchable node label, as recall names them."""
        return {"propositions": self.propositions, "episodes": self.episodes}

    def labels(self) -> dict[str, str]:
        """The parameters the labelling statements take."""
        return {"proposition_label": self.proposition_label, "episode_label": self.episode_label}


def _ddl(name: str, index: str, label: str = "") -> str:
    return load(f"space_vectors/{name}").replace("{index}", index).replace("{label}", label)


def dedicate(driver: neo4j.Driver, database: str, space: str, threshold: int = DEDICATE_FROM) -> bool:
    """Gives the space vector indexes of its own once it holds `threshold` propositions or episodes; returns
    whether it has them."""
    validate_space(space)
    names = SpaceVectorIndexes.of(space)
    records, _, _ = driver.execute_query(
        load("space_vectors/size"),
        space=space,
        threshold=threshold,
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    )
    if not records[0]["large"]:
        return False
    with driver.session(database=database) as session:
        session.run(_ddl("create_index", names.propositions, names.proposition_label)).consume()
        session.run(_ddl("create_index", names.episodes, names.episode_label)).consume()
        session.run(load("space_vectors/start_labelling"), {"space": space, **names.labels()}).consume()
        # Auto-commit: the statement commits in batches of its own.
        session.run(load("space_vectors/label_existing"), {"space": space, **names.labels()}).consume()
        for index in names.by_label().values():
            session.run(load("space_vectors/await_index"), index=index, timeout_s=INDEX_ONLINE_TIMEOUT_S).consume()
        session.run(load("space_vectors/mark_ready"), space=space).consume()
    return True


def label_written(
    tx: neo4j.ManagedTransaction, space: str, proposition_ids: Sequence[str], episode_ids: Sequence[str]
) -> None:
    """In a write's transaction: the new nodes join the space's own indexes, if it has (or is getting) them."""
    tx.run(
        load("ingest/label_written"),
        {
            "space": space,
            "proposition_ids": list(proposition_ids),
            "episode_ids": list(episode_ids),
            **SpaceVectorIndexes.of(space).labels(),
        },
    )


def drop(driver: neo4j.Driver, database: str, space: str) -> None:
    """Drops the space's own vector indexes, if it has any (the space's nodes are deleted apart)."""
    with driver.session(database=database) as session:
        for index in SpaceVectorIndexes.of(space).by_label().values():
            session.run(_ddl("drop_index", index)).consume()
