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


_BLOCK = 512  # phrases scored against the whole schema at once (memory: block x schema floats)


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
        # The closest schema key of every phrase in one matrix product per block (not one pass over the schema
        # per phrase); keys accommodated during this call are compared as they arrive.
        best_known = np.full(len(keys), -1, np.int64)
        best_known_score = np.full(len(keys), -np.inf, np.float32)
        if known:
            matrix = np.stack([k.embedding for k in known if k.embedding is not None])
            for start in range(0, len(keys), _BLOCK):
                scores = vectors[start : start + _BLOCK] @ matrix.T
                best_known[start : start + _BLOCK] = scores.argmax(axis=1)
                best_known_score[start : start + _BLOCK] = scores.max(axis=1)
        accommodated_here: list[SchemaKey] = []
        fresh = np.zeros((len(keys), vectors.shape[1]), np.float32)
        by_key: dict[str, Assimilated] = {}
        for index, (key, vector) in enumerate(zip(keys, vectors, strict=True)):
            best: SchemaKey | None = known[best_known[index]] if best_known[index] >= 0 else None
            best_score = float(best_known_score[index])
            if accommodated_here:
                scores = fresh[: len(accommodated_here)] @ vector
                closest = int(np.argmax(scores))
                if scores[closest] > best_score:
                    best, best_score = accommodated_here[closest], float(scores[closest])
            if best is not None and best_score >= self._threshold:
                by_key[key] = Assimilated(best.key, best.name, MatchKind.EMBEDDING)
                continue
            accommodated = SchemaKey(key, pending[key], vector)
            self._keys[key] = accommodated
            self._compact[_compact(key)] = key
            self.new_keys[key] = accommodated
            fresh[len(accommodated_here)] = vector
            accommodated_here.append(accommodated)
            by_key[key] = Assimilated(key, pending[key], MatchKind.NEW)
        return {p: by_key[normalize_key(p)] for p in phrases if normalize_key(p) in by_key}
