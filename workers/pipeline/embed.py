"""Stage 3: embeddings for propositions, episodes, intents and prescriptions (one batched pass).

An episode that yielded propositions gets the normalised mean of their vectors instead of a second
encoding of nearly the same text; only episodes without propositions are encoded themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from workers.pipeline.extract import ExtractedKnowledge
from workers.pipeline.standardize import StandardizedBatch

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]


def _normalise(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalised: NDArray[np.float32] = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return normalised


def embed_batch(
    batch: StandardizedBatch, knowledge: ExtractedKnowledge, embed: EmbedFn
) -> dict[str, NDArray[np.float32]]:
    proposition_texts = [p.text for p in knowledge.propositions]
    proven: dict[str, list[int]] = {}
    for index, proposition in enumerate(knowledge.propositions):
        for episode_id in proposition.episode_ids:
            proven.setdefault(episode_id, []).append(index)
    bare = [e for e in batch.episodes if e.id not in proven]
    texts = proposition_texts + [e.text for e in bare] + [i.text for i in knowledge.intents]
    texts += [p.text for p in knowledge.prescriptions]
    vectors = embed(texts)
    n_prop, n_bare, n_int = len(proposition_texts), len(bare), len(knowledge.intents)
    propositions = vectors[:n_prop]
    bare_vectors = dict(zip((e.id for e in bare), vectors[n_prop : n_prop + n_bare], strict=True))
    episodes = np.zeros((len(batch.episodes), vectors.shape[1]), np.float32)
    for row, episode in enumerate(batch.episodes):
        episodes[row] = (
            propositions[proven[episode.id]].mean(axis=0) if episode.id in proven else bare_vectors[episode.id]
        )
    return {
        "propositions": propositions,
        "episodes": _normalise(episodes),
        "intents": vectors[n_prop + n_bare : n_prop + n_bare + n_int],
        "prescriptions": vectors[n_prop + n_bare + n_int :],
    }
