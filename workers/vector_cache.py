"""Vectors of short texts (concept phrases, subgoals) shared for a while by the jobs of one space.

The jobs of a space run side by side, and each extract stage reads the schema from Neo4j before the others have
written their keys, so each job embedded every phrase it met: a phrase that recurs across a space's conversations
was embedded again by every job that met it (figures in docs/tuning.md). Through this cache a phrase is embedded
once per space while jobs overlap. Entries expire after `ttl_s` (refreshed on each write): by then the keys are in
Neo4j and assimilate exactly, and no phrase text of a forgotten source outlives the TTL in Redis.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import redis
from numpy.typing import NDArray

from engram.embedding import EMBEDDING_DIMENSIONS

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
VECTOR_BYTES = EMBEDDING_DIMENSIONS * 4


def cache_key(space: str, model: str) -> str:
    # The model is part of the key: vectors of another model must never be mixed into a space's schema.
    return f"engram:vectors:{hashlib.sha1(model.encode()).hexdigest()[:12]}:{space}"


def drop_space_vectors(client: redis.Redis, space: str) -> None:
    """Forget the space's cached phrases now rather than after the TTL (every model's cache of the space)."""
    names = list(client.scan_iter(f"engram:vectors:{'?' * 12}:{space}", count=1000))  # see cache_key
    if names:
        client.delete(*names)


def cached_embedder(client: redis.Redis, key: str, embed: EmbedFn, ttl_s: int = 600) -> EmbedFn:
    """`embed`, answering texts already embedded under `key` from Redis and storing what it computes."""

    def embed_cached(texts: Sequence[str]) -> NDArray[np.float32]:
        if not texts:
            return embed(texts)
        unique = list(dict.fromkeys(texts))
        stored = client.hmget(key, unique)
        vectors = {
            text: np.frombuffer(raw, np.float32)
            for text, raw in zip(unique, stored, strict=True)
            if isinstance(raw, bytes) and len(raw) == VECTOR_BYTES  # anything else is recomputed
        }
        missing = [text for text in unique if text not in vectors]
        if missing:
            fresh = embed(missing).astype(np.float32)
            vectors.update(zip(missing, fresh, strict=True))
            pipe = client.pipeline()
            pipe.hset(key, mapping={text: vector.tobytes() for text, vector in zip(missing, fresh, strict=True)})
            pipe.expire(key, ttl_s)
            pipe.execute()
        return np.stack([vectors[text] for text in texts])

    return embed_cached
