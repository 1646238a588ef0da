"""Near-duplicate propositions: candidates share a concept and are close in embedding space; a judge decides
whether they are the same fact restated (merge), the same fact with a new value (the newer one updates the
older) or only related (both stay).

Nothing is deleted: the replaced proposition becomes `superseded` (with `expired_at`, and `valid_to` when its
value stopped being true), the survivor `SUPERSEDES` it and carries its proofs (`PROVEN_BY {inherited_from}`)
and concepts. Planning runs to a fixed point in memory, so a second consolidation finds nothing left to do.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.consolidation.model import PropositionView, time_key, unit_rows, view_of
from graph.consolidation.text import (
    content_tokens,
    context_bound,
    dates,
    is_question,
    jaccard,
    negated,
    possessors,
    shared_image,
    values,
)
from graph.cypher import load

MAX_ROUNDS = 8
BLOCK = 1024  # rows of a similarity block (memory: BLOCK x members floats)


class DuplicateDecision(StrEnum):
    UPDATED = "updated"  # the same fact with a new value: the newer one supersedes the older
    MERGE = "merge"  # the same fact restated, or the same point in other words: one survivor stands for both
    KEEP = "keep"  # only related: both stay current


@dataclass(frozen=True)
class DuplicateRules:
    threshold: float = 0.88  # cosine of candidates
    merge_overlap: float = 0.75  # content-word Jaccard to call two statements the same fact
    update_overlap: float = 0.75  # content-word Jaccard of two values of the same fact
    topic_cosine: float = 0.92  # so close in meaning that ...
    topic_overlap: float = 0.5  # ... half the content words shared make the same point in other words
    updates: bool = True  # the same fact with a new value supersedes the older one (else both stay)


class DuplicateJudge(Protocol):
    def decide(self, a: PropositionView, b: PropositionView, cosine: float) -> DuplicateDecision: ...


class OfflineJudge:
    """The default judge: rules over subjects, dates, quantities, negation and shared content words. Only
    statements that stand on their own merge: a shared photo, a remark about "that", or the same words about
    someone else's things are kept apart (merging them would tie one statement to unrelated episodes)."""

    def __init__(self, rules: DuplicateRules | None = None) -> None:
        self.rules = rules or DuplicateRules()

    def decide(self, a: PropositionView, b: PropositionView, cosine: float) -> DuplicateDecision:
        rules = self.rules
        if cosine < rules.threshold:
            return DuplicateDecision.KEEP
        if a.subject and b.subject and a.subject.casefold() != b.subject.casefold():
            return DuplicateDecision.KEEP  # about different people
        if is_question(a.text) != is_question(b.text) or negated(a.text) != negated(b.text):
            return DuplicateDecision.KEEP
        if shared_image(a.text) or shared_image(b.text):
            return DuplicateDecision.KEEP  # two photos shared at two moments are two events
        if context_bound(a.text) or context_bound(b.text):
            return DuplicateDecision.KEEP  # "that looks amazing" is about something else in every episode
        if possessors(a.text) != possessors(b.text):
            return DuplicateDecision.KEEP  # "Nate's support ... to Joanna" is not "Joanna's support ... to Nate"
        if dates(a.text) != dates(b.text):
            return DuplicateDecision.KEEP  # events of different days, or one dated and one not
        overlap = jaccard(content_tokens(a.text), content_tokens(b.text))
        values_a, values_b = values(a.text), values(b.text)
        if values_a != values_b:
            if rules.updates and values_a and values_b and overlap >= rules.update_overlap:
                return DuplicateDecision.UPDATED
            return DuplicateDecision.KEEP
        if overlap >= rules.merge_overlap or (cosine >= rules.topic_cosine and overlap >= rules.topic_overlap):
            return DuplicateDecision.MERGE
        return DuplicateDecision.KEEP


@dataclass(frozen=True)
class Supersession:
    survivor: str
    replaced: str
    reason: str  # "merge", "updated", "conflict", "correction"
    similarity: float
    score: float = 0.0
    carry: bool | None = None  # the survivor takes the replaced one's proofs and concepts (None: by reason)

    def row(self) -> dict[str, Any]:
        carry = self.reason in CARRYING_REASONS if self.carry is None else self.carry
        return {
            "survivor": self.survivor,
            "replaced": self.replaced,
            "reason": self.reason,
            "similarity": round(self.similarity, 4),
            "score": round(self.score, 4),
            "carry": carry,
            "ends_validity": self.reason in ("updated", "conflict", "changed"),
        }


# Supersessions after which the survivor stands for the replaced statement and inherits its proofs.
CARRYING_REASONS = ("merge", "updated", "correction")


def survivor_of_merge(a: PropositionView, b: PropositionView) -> tuple[PropositionView, PropositionView]:
    """(survivor, replaced): best supported, then most confident, then most informative, then oldest."""

    def rank(p: PropositionView) -> tuple[int, float, int, float, str]:
        return (p.support, p.confidence, len(p.text), -time_key(p.recorded_at), p.id)

    return (a, b) if rank(a) >= rank(b) else (b, a)


def survivor_of_update(a: PropositionView, b: PropositionView) -> tuple[PropositionView, PropositionView]:
    """(newer, older): the later value in the world wins, then the later one recorded."""

    def rank(p: PropositionView) -> tuple[float, float, str]:
        return (time_key(p.valid_from), time_key(p.recorded_at), p.id)

    return (a, b) if rank(a) >= rank(b) else (b, a)


def candidate_pairs(
    views: Sequence[PropositionView], vectors: NDArray[np.float32], threshold: float, alive: set[int]
) -> list[tuple[int, int, float]]:
    """Pairs (i < j) of alive views that share a concept with cosine >= threshold, most similar first."""
    members: dict[str, list[int]] = {}
    for index in sorted(alive):
        for concept in views[index].concept_ids:
            members.setdefault(concept, []).append(index)
    found: dict[tuple[int, int], float] = {}
    for group in members.values():
        if len(group) < 2:
            continue
        idx = np.asarray(group)
        for start in range(0, len(idx), BLOCK):
            rows = idx[start : start + BLOCK]
            sims = vectors[rows] @ vectors[idx].T
            hit_rows, hit_cols = np.nonzero(sims >= threshold)
            for r, c in zip(hit_rows.tolist(), hit_cols.tolist(), strict=True):
                i, j = int(rows[r]), int(idx[c])
                if i < j:
                    found[(i, j)] = float(sims[r, c])
    return sorted(((i, j, s) for (i, j), s in found.items()), key=lambda t: (-t[2], t[0], t[1]))


def plan_duplicates(
    views: list[PropositionView], vectors: NDArray[np.float32], judge: DuplicateJudge, threshold: float
) -> tuple[list[Supersession], int]:
    """Supersessions to a fixed point (a survivor that absorbed concepts may meet new candidates), and how
    many candidate pairs were judged."""
    alive = set(range(len(views)))
    plans: list[Supersession] = []
    judged = 0
    for _ in range(MAX_ROUNDS):
        gone: set[int] = set()
        pairs = candidate_pairs(views, vectors, threshold, alive)
        judged += len(pairs)
        index_of = {v.id: i for i, v in enumerate(views)}
        for i, j, cosine in pairs:
            if i in gone or j in gone:
                continue
            decision = judge.decide(views[i], views[j], cosine)
            if decision is DuplicateDecision.KEEP:
                continue
            choose = survivor_of_merge if decision is DuplicateDecision.MERGE else survivor_of_update
            survivor, replaced = choose(views[i], views[j])
            plans.append(Supersession(survivor.id, replaced.id, decision.value, cosine))
            gone.add(index_of[replaced.id])
            survivor.support += replaced.support
            survivor.concept_ids = survivor.concept_ids | replaced.concept_ids
        if not gone:
            break
        alive -= gone
    return plans, judged


def _chunks(items: Sequence[dict[str, Any]], size: int) -> Iterator[Sequence[dict[str, Any]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def load_active(driver: neo4j.Driver, database: str, space: str) -> tuple[list[PropositionView], NDArray[np.float32]]:
    records, _, _ = driver.execute_query(
        load("consolidate/active_propositions"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    rows = [r.data() for r in records]
    return [view_of(row) for row in rows], unit_rows([row["embedding"] for row in rows])


def supersede(driver: neo4j.Driver, database: str, space: str, plans: Sequence[Supersession]) -> list[str]:
    """Apply supersessions (batched transactions); returns the ids actually replaced now."""
    replaced: list[str] = []
    rows = [p.row() for p in plans]

    def write(tx: neo4j.ManagedTransaction, chunk: list[dict[str, Any]]) -> list[str]:
        record = tx.run(load("consolidate/supersede"), space=space, supersessions=chunk).single(strict=True)
        return list(record["replaced"])

    with driver.session(database=database) as session:
        for chunk in _chunks(rows, 500):
            replaced.extend(session.execute_write(write, list(chunk)))
    return replaced


def carry_late_proofs(driver: neo4j.Driver, database: str, space: str) -> int:
    """Proofs that reached a replaced proposition after it was replaced (a concurrent or later ingest of the same
    statement) are carried on to the proposition that now stands for it."""
    with driver.session(database=database) as session:
        return int(
            session.execute_write(
                lambda tx: tx.run(
                    load("consolidate/carry_late_proofs"), space=space, reasons=list(CARRYING_REASONS)
                ).single(strict=True)["carried"]
            )
        )


@dataclass(frozen=True)
class DuplicateOutcome:
    candidates: int
    merged: int
    updated: int
    replaced_ids: list[str]


def merge_duplicates(
    driver: neo4j.Driver,
    database: str,
    space: str,
    judge: DuplicateJudge | None = None,
    threshold: float | None = None,
) -> DuplicateOutcome:
    judge = judge or OfflineJudge()
    if threshold is None:
        threshold = judge.rules.threshold if isinstance(judge, OfflineJudge) else DuplicateRules().threshold
    views, vectors = load_active(driver, database, space)
    plans, judged = plan_duplicates(views, vectors, judge, threshold)
    replaced = set(supersede(driver, database, space, plans))
    done = [p for p in plans if p.replaced in replaced]
    return DuplicateOutcome(
        candidates=judged,
        merged=sum(p.reason == "merge" for p in done),
        updated=sum(p.reason == "updated" for p in done),
        replaced_ids=sorted(replaced),
    )
