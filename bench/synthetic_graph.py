"""A synthetic memory graph with realistic shape for latency benchmarks.

Concept popularity follows a Zipf law (a few concepts are mentioned everywhere, most rarely), each
proposition mentions 1-4 concepts and is proven by one episode, sources hold 50 episodes, and vectors
cluster around the concepts a proposition mentions, so dense search behaves as on real data.
"""

from __future__ import annotations

from collections.abc import Iterator

import neo4j
import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm

from engram.ids import stable_id
from engram.models import Concept, Episode, Proposition, Source, SourceKind
from graph.memory_writer import MemoryBatch, MemoryWriter, refresh_concepts

DIMENSIONS = 384
EPISODES_PER_SOURCE = 50
BATCH = 2000


def _unit(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


class SyntheticGraph:
    def __init__(self, space: str, propositions: int, seed: int = 7) -> None:
        self.space = space
        self.size = propositions
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.n_concepts = max(50, propositions // 5)
        self.concept_vectors = _unit(self.rng.standard_normal((self.n_concepts, DIMENSIONS)).astype(np.float32))
        self.concept_keys = [f"topic {i}" for i in range(self.n_concepts)]
        self.vocabulary = [f"w{i}" for i in range(20_000)]

    def _zipf(self, n: int, high: int) -> NDArray[np.int64]:
        return (self.rng.zipf(1.3, size=n) - 1) % high

    def proposition_batch(self, start: int, count: int) -> tuple[list[list[int]], list[str], NDArray[np.float32]]:
        concept_ids = [
            sorted(set(self._zipf(int(self.rng.integers(1, 5)), self.n_concepts).tolist())) for _ in range(count)
        ]
        texts = []
        vectors = np.zeros((count, DIMENSIONS), np.float32)
        for row, concepts in enumerate(concept_ids):
            words = [self.vocabulary[i] for i in self._zipf(8, len(self.vocabulary))]
            texts.append(
                f"fact {start + row} about {' and '.join(self.concept_keys[c] for c in concepts)}: {' '.join(words)}"
            )
            vectors[row] = self.concept_vectors[concepts].sum(axis=0) + 0.6 * self.rng.standard_normal(DIMENSIONS)
        return concept_ids, texts, _unit(vectors)

    def first_facts(self, count: int) -> tuple[list[str], NDArray[np.float32]]:
        """Texts and vectors of the first `count` stored propositions. A batch draws all its concepts before its
        words, so a smaller batch would not reproduce them: this draws the first batch as written, from a fresh
        generator with the graph's seed."""
        fresh = SyntheticGraph(self.space, self.size, self.seed)
        _, texts, vectors = fresh.proposition_batch(0, min(BATCH, self.size))
        return texts[:count], vectors[:count]

    def batches(self) -> Iterator[MemoryBatch]:
        for start in range(0, self.size, BATCH):
            count = min(BATCH, self.size - start)
            concept_ids, texts, vectors = self.proposition_batch(start, count)
            sources, episodes, propositions = [], [], []
            for row in range(count):
                index = start + row
                source_id = stable_id("src", self.space, str(index // EPISODES_PER_SOURCE))
                if index % EPISODES_PER_SOURCE == 0 or row == 0:
                    sources.append(
                        Source(space=self.space, id=source_id, kind=SourceKind.DOCUMENT, external_id=source_id)
                    )
                episode = Episode(space=self.space, id=stable_id("ep", self.space, str(index)), source_id=source_id,
                                  seq=index % EPISODES_PER_SOURCE, external_id=str(index), text=texts[row])  # fmt: skip
                episodes.append(episode)
                propositions.append(
                    Proposition(
                        space=self.space,
                        id=stable_id("prop", self.space, str(index)),
                        text=texts[row],
                        episode_ids=[episode.id],
                        concept_keys=[self.concept_keys[c] for c in concept_ids[row]],
                    )
                )
            used = sorted({c for ids in concept_ids for c in ids})
            concepts = [Concept(space=self.space, id=stable_id("con", self.space, self.concept_keys[c]),
                                key=self.concept_keys[c], name=self.concept_keys[c]) for c in used]  # fmt: skip
            yield MemoryBatch(
                space=self.space, sources=list({s.id: s for s in sources}.values()), episodes=episodes,
                episode_vectors=vectors, concepts=concepts, concept_vectors=self.concept_vectors[used],
                propositions=propositions, proposition_vectors=vectors, intents=[],
                intent_vectors=np.zeros((0, DIMENSIONS), np.float32), prescriptions=[],
                prescription_vectors=np.zeros((0, DIMENSIONS), np.float32),
            )  # fmt: skip

    def write(self, writer: MemoryWriter, driver: neo4j.Driver, database: str) -> None:
        """Write the graph. Batches are generated in order from one seeded generator, so a build that stopped
        part-way resumes: a batch whose last proposition is stored is skipped (writes are MERGEs, so a batch
        cut in the middle is simply written again)."""
        concept_ids: set[str] = set()
        for batch in tqdm(self.batches(), total=-(-self.size // BATCH), desc=f"write {self.space}", unit="batch"):
            if _stored(driver, database, self.space, batch.propositions[-1].id):
                concept_ids |= {c.id for c in batch.concepts}
            else:
                concept_ids |= writer.write(batch).concept_ids
        ordered = sorted(concept_ids)
        for start in tqdm(range(0, len(ordered), 500), desc="associations", unit="batch"):
            refresh_concepts(driver, database, self.space, ordered[start : start + 500])


def _stored(driver: neo4j.Driver, database: str, space: str, proposition_id: str) -> bool:
    records, _, _ = driver.execute_query(
        "MATCH (p:Proposition {space: $space, id: $id}) RETURN count(p) AS n",
        space=space, id=proposition_id, database_=database,
    )  # fmt: skip
    return bool(records[0]["n"])
