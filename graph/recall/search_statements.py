"""The Neo4j searcher's statements and fetch sizes: which index and statement serves each label, how far an
over-fetch from a shared index grows, the space sizes it reads (cached), and the rows-to-hits conversions."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from graph.recall.hits import ConceptHit, Hit

SHARED_VECTOR_INDEXES = {
    "propositions": "proposition_embedding",
    "episodes": "episode_embedding",
    "prescriptions": "prescription_embedding",
    "intents": "intent_embedding",
    "concepts": "concept_embedding",
}


SHARED_FULLTEXT_INDEXES = {
    "propositions": "proposition_text",
    "episodes": "episode_text",
    "prescriptions": "prescription_text",
}


# The field a label's full-text search reads (`text` where not named): a prescription's words each once (schema 0007).
FULLTEXT_FIELDS = {"prescriptions": "terms"}


# A small space's full-text hits of these labels are scored again with its own term statistics
# (graph/recall/bm25.py), from a pool of `rescore_pool` times k that the shared index scored; label -> the size that
# is its mean text length (`space_size`).
RESCORED_MEAN_CHARS = {"propositions": "proposition_chars", "episodes": "episode_chars"}


# Every statement recall runs, by operation and label: named in full so a search for a file name finds its caller.
EXACT_STATEMENTS = {
    "propositions": "exact_propositions",
    "episodes": "exact_episodes",
    "prescriptions": "exact_prescriptions",
    "intents": "exact_intents",
}


DENSE_STATEMENTS = {
    "propositions": "dense_propositions",
    "episodes": "dense_episodes",
    "prescriptions": "dense_prescriptions",
    "intents": "dense_intents",
}


FULLTEXT_STATEMENTS = {
    "propositions": "fulltext_propositions",
    "episodes": "fulltext_episodes",
    "prescriptions": "fulltext_prescriptions",
}


HYDRATE_STATEMENTS = {
    "propositions": "hydrate_propositions",
    "episodes": "hydrate_episodes",
    "prescriptions": "hydrate_prescriptions",
}


SHARED_INDEXES = frozenset(SHARED_VECTOR_INDEXES.values()) | frozenset(SHARED_FULLTEXT_INDEXES.values())


def next_fetch(fetch: int, hits: int, k: int, max_fetch: int) -> int:
    """The next over-fetch from a shared index after `fetch` rows gave `hits` of this space (fewer than k).

    Grows by the space's share seen in those rows (with a margin), not by a fixed factor: a space holding most of
    the index needs a few more rows (docs/tuning.md, `search.max_fetch`), a small one
    many more; either way few round trips.
    """
    share = hits / fetch
    return min(max_fetch, max(2 * fetch, math.ceil(1.5 * k / share) if share else 8 * fetch))


class SpaceSizes:
    """How many nodes of each searchable label a space has (capped), remembered for `ttl_s` seconds.

    The sizes only choose between an exact scan and the shared index, both of which answer correctly, so a size
    a few seconds old is good enough, and counting it on every recall cost a sequential round trip.
    """

    def __init__(self, ttl_s: float) -> None:
        self._ttl_s = ttl_s
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, dict[str, int]]] = {}

    def get(self, space: str, count: Callable[[], dict[str, int]]) -> dict[str, int]:
        now = time.monotonic()
        with self._lock:
            entry = self._entries.get(space)
        if entry is not None and now - entry[0] < self._ttl_s:
            return entry[1]
        sizes = count()
        with self._lock:
            self._entries[space] = (now, sizes)
        return sizes


def first_fetch(index: str, k: int, shared: int) -> int:
    """Rows to ask an index for first: k from a space's own index, where every row is the space's; `shared` (an
    over-fetch) from a shared one."""
    return shared if index in SHARED_INDEXES else k


def hits_of(rows: list[dict[str, Any]], statement: str) -> list[Hit]:
    """Best first, ties broken by id (the statements order their rows so too; this does not depend on it). The
    episode statements' rows must carry their knowledge (`propositions`, `prescriptions`, `knowledge`): a row without
    it is an error, not chit-chat; an intent statement's carry the prescriptions solving it."""
    if statement.endswith("_episodes"):
        hits = [episode_hit(r) for r in rows]
    elif statement.endswith("_intents"):  # an intent stands for the prescriptions that solve it
        hits = [Hit(r["id"], float(r["score"]), prescribes=tuple(sorted(r["prescriptions"]))) for r in rows]
    else:
        hits = [Hit(r["id"], float(r["score"]), text=r.get("text") or "") for r in rows]
    return sorted(hits, key=lambda h: (-h.score, h.id))


def episode_hit(row: dict[str, Any]) -> Hit:
    return Hit(
        row["id"],
        float(row["score"]),
        tuple(sorted(row["propositions"])),
        int(row["knowledge"]),
        tuple(sorted(row["prescriptions"])),
        row.get("text") or "",
    )


def concept_hits(rows: list[dict[str, Any]]) -> list[ConceptHit]:
    """Concept rows; a row without a score (an exact key match) is full confidence."""
    return [ConceptHit(r["id"], r["key"], float(r["idf"]), int(r["df"]), float(r.get("score", 1.0))) for r in rows]
