"""Assimilate candidate concept phrases into a space's schema of keys, or accommodate new keys.

Order of evidence: the exact key; the same key once normalised (case, punctuation, plural, spacing);
an existing key whose embedding is close enough; otherwise the phrase is accommodated as a new key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from engram.extraction.keyphrases import normalize_key

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]


class MatchKind(StrEnum):
    EXACT = "exact"
    NORMALIZED = "normalized"
    EMBEDDING = "embedding"
    NEW = "new"


@dataclass(frozen=True)
class SchemaKey:
    key: str
    name: str
    embedding: NDArray[np.float32] | None


@dataclass(frozen=True)
class Assimilated:
    key: str
    name: str
    how: MatchKind


def _compact(key: str) -> str:
    return key.replace(" ", "")


class Assimilator:
    """Maps phrases to schema keys. Keys accommodated here are visible to later phrases of the same job."""

    def __init__(self, schema: Iterable[SchemaKey], embed: EmbedFn, threshold: float = 0.9) -> None:
        self._keys: dict[str, SchemaKey] = {k.key: k for k in schema}
        self._compact = {_compact(k): k for k in self._keys}
        self._embed = embed
        self._threshold = threshold
        self.new_keys: dict[str, SchemaKey] = {}

    def assimilate(self, phrases: Sequence[str]) -> dict[str, Assimilated]:
        """Phrase -> the key it belongs to (phrases that normalise to nothing are left out)."""
        result: dict[str, Assimilated] = {}
        pending: dict[str, str] = {}  # normalised key -> a display phrase
        for phrase in phrases:
            key = normalize_key(phrase)
            if not key or phrase in result:
                continue
            if phrase.lower() in self._keys:
                result[phrase] = Assimilated(phrase.lower(), self._keys[phrase.lower()].name, MatchKind.EXACT)
            elif key in self._keys or _compact(key) in self._compact:
                known = self._keys.get(key) or self._keys[self._compact[_compact(key)]]
                result[phrase] = Assimilated(known.key, known.name, MatchKind.NORMALIZED)
            else:
                pending.setdefault(key, phrase)
        if pending:
            result.update(self._by_embedding(pending, phrases))
        return result

    def _by_embedding(self, pending: dict[str, str], phrases: Sequence[str]) -> dict[str, Assimilated]:
        keys = list(pending)
        vectors = self._embed([pending[k] for k in keys])
        known = [k for k in self._keys.values() if k.embedding is not None]
        matrix = (
            np.stack([k.embedding for k in known if k.embedding is not None])
            if known
            else np.zeros((0, vectors.shape[1]), np.float32)
        )
        by_key: dict[str, Assimilated] = {}
        for key, vector in zip(keys, vectors, strict=True):
            if len(known):
                scores = matrix @ vector
                best = int(np.argmax(scores))
                if scores[best] >= self._threshold:
                    by_key[key] = Assimilated(known[best].key, known[best].name, MatchKind.EMBEDDING)
                    continue
            accommodated = SchemaKey(key, pending[key], vector)
            self._keys[key] = accommodated
            self._compact[_compact(key)] = key
            self.new_keys[key] = accommodated
            known.append(accommodated)
            matrix = np.vstack([matrix, vector[None, :]])
            by_key[key] = Assimilated(key, pending[key], MatchKind.NEW)
        return {p: by_key[normalize_key(p)] for p in phrases if normalize_key(p) in by_key}
