"""A deterministic, fast stand-in for the sentence embedder in unit tests (numpy only, no model).

A text's vector is a hashed bag of its lower-cased words and word bigrams, L2-normalised: texts sharing words are
close, texts sharing none are orthogonal (cosine 0, but where two words share a slot), and the same text always gives
the same vector, in any process (blake2b, not Python's salted `hash`). No signs: a shared word never cancels against
another one in its slot, so sharing a word always brings two texts closer. A text without words is the zero vector.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

TOY_DIMENSIONS = 256
BIGRAM_WEIGHT = 0.5  # a shared word pair adds to closeness, less than a shared word does
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@lru_cache(maxsize=65_536)
def _slot(feature: str, dims: int) -> int:
    """The dimension a feature lands in."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") % dims


@lru_cache(maxsize=16_384)
def _vector(text: str, dims: int) -> NDArray[np.float32]:
    out = np.zeros(dims, dtype=np.float64)
    tokens = words(text)
    features = [(token, 1.0) for token in tokens]
    features += [(f"{a} {b}", BIGRAM_WEIGHT) for a, b in pairwise(tokens)]
    for feature, weight in features:
        out[_slot(feature, dims)] += weight
    norm = float(np.linalg.norm(out))
    vector = (out / norm if norm > 0 else out).astype(np.float32)
    vector.setflags(write=False)  # shared through the cache
    return vector


class ToyEmbedder:
    """`encode` and `count_tokens` as engram/embedding.py's `Embedder` has them."""

    def __init__(self, dims: int = TOY_DIMENSIONS) -> None:
        self.dims = dims

    def encode(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> NDArray[np.float32]:
        """One L2-normalised float32 row per text, in order."""
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = _vector(text, self.dims)
        if progress:
            progress(len(texts))
        return out

    def count_tokens(self, text: str) -> int:
        """Words and punctuation marks: roughly what a word-piece tokenizer counts for plain English."""
        return len(re.findall(r"\w+|[^\w\s]", text))
