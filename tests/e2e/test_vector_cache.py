"""Concurrent jobs of a space share phrase vectors through Redis (workers/vector_cache.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from engram.embedding import get_embedder
from workers.resources import get_redis
from workers.vector_cache import VECTOR_BYTES, cache_key, cached_embedder


def test_a_phrase_is_embedded_once_per_space_and_model(space: str) -> None:
    client = get_redis()
    key = cache_key(space, "model-a")
    client.delete(key)
    calls: list[list[str]] = []

    def embed(texts: Sequence[str]) -> NDArray[np.float32]:
        calls.append(list(texts))
        return get_embedder().encode(texts)

    first = cached_embedder(client, key, embed)(["dance studio", "caroline", "dance studio"])
    second = cached_embedder(client, key, embed)(["caroline", "charity race", "dance studio"])
    assert calls == [["dance studio", "caroline"], ["charity race"]]
    np.testing.assert_allclose(first[0], first[2])
    np.testing.assert_allclose(second, get_embedder().encode(["caroline", "charity race", "dance studio"]), atol=2e-6)
    assert 0 < client.ttl(key) <= 600

    # Another model or another space shares nothing; a damaged entry is recomputed, not trusted.
    assert cache_key(space, "model-b") != key and cache_key(space + "x", "model-a") != key
    client.hset(key, "caroline", b"\x00" * (VECTOR_BYTES - 4))
    again = cached_embedder(client, key, embed)(["caroline"])
    assert calls[-1] == ["caroline"] and again.shape == (1, 384)
    assert cached_embedder(client, key, embed)([]).shape == (0, 384)
    client.delete(key)
