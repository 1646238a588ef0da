"""Intent merge for procedural memory: near-duplicate goals ("prepare a pasta dinner" / "cook pasta for dinner")
become one. The canonical intent (most prescriptions, then the oldest) keeps every prescription (`SOLVES`
re-pointed); the merged one stays, with status `merged`, `merged_into` and a `SUPERSEDES` link from the
canonical one, so nothing is deleted and the lineage stays queryable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.consolidation.model import native, time_key, unit_rows
from graph.consolidation.text import content_tokens
from graph.cypher import load

INTENT_THRESHOLD = 0.9


@dataclass(frozen=True)
class IntentView:
    id: str
    text: str
    prescriptions: int
    recorded_at: float


@dataclass(frozen=True)
class IntentMerge:
    canonical: str
    merged: str
    similarity: float


def same_goal(a: IntentView, b: IntentView, cosine: float, threshold: float = INTENT_THRESHOLD) -> bool:
    words_a, words_b = content_tokens(a.text), content_tokens(b.text)
    return cosine >= threshold or (bool(words_a) and words_a == words_b)


def plan_intent_merges(
    intents: Sequence[IntentView], vectors: NDArray[np.float32], threshold: float = INTENT_THRESHOLD
) -> list[IntentMerge]:
    """Greedy, most similar pairs first; every merged intent points at its final canonical intent."""
    n = len(intents)
    if n < 2:
        return []
    sims = vectors @ vectors.T
    close = {(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(sims >= threshold, 1)), strict=True)}
    by_words: dict[frozenset[str], list[int]] = {}
    for index, intent in enumerate(intents):
        if words := content_tokens(intent.text):
            by_words.setdefault(words, []).append(index)
    close |= {(i, j) for group in by_words.values() for i in group for j in group if i < j}
    pairs = sorted(((float(sims[i, j]), i, j) for i, j in close), key=lambda p: (-p[0], p[1], p[2]))
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def rank(i: int) -> tuple[int, float, str]:
        return (-intents[i].prescriptions, intents[i].recorded_at, intents[i].id)

    similarity: dict[int, float] = {}
    for cosine, i, j in pairs:
        ri, rj = find(i), find(j)
        if ri == rj or not same_goal(intents[ri], intents[rj], float(sims[ri, rj]), threshold):
            continue
        keep, gone = (ri, rj) if rank(ri) <= rank(rj) else (rj, ri)
        parent[gone] = keep
        similarity[gone] = cosine
    return [IntentMerge(intents[find(i)].id, intents[i].id, round(similarity[i], 4)) for i in range(n) if find(i) != i]


@dataclass(frozen=True)
class IntentOutcome:
    merged: int
    prescriptions_moved: int


def merge_intents(
    driver: neo4j.Driver, database: str, space: str, threshold: float = INTENT_THRESHOLD
) -> IntentOutcome:
    records, _, _ = driver.execute_query(
        load("consolidate/active_intents"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    intents = [
        IntentView(r["id"], r["text"] or "", int(r["prescriptions"]), time_key(native(r["recorded_at"])))
        for r in records
    ]
    merges = plan_intent_merges(intents, unit_rows([r["embedding"] for r in records]), threshold)
    with driver.session(database=database) as session:
        merged = session.execute_write(
            lambda tx: tx.run(
                load("consolidate/merge_intents"), space=space, merges=[m.__dict__ for m in merges]
            ).single(strict=True)
        )
        late = session.execute_write(
            lambda tx: tx.run(load("consolidate/repoint_late_prescriptions"), space=space).single(strict=True)
        )
    return IntentOutcome(merged=int(merged["merged"]), prescriptions_moved=int(merged["moved"]) + int(late["moved"]))
