"""Conflicting propositions: the same subject and a single-valued predicate ("lives in", "works at", "favourite
book", "age", ...) with incompatible objects. The most reliable claim (recency, source quality and confidence,
number of supporting episodes) stays current; the others are superseded with `valid_to` and `expired_at`, so
they stay visible to `as_of` queries of the time they were believed.

Triples come from the proposition's own subject/predicate/object when an extractor filled them, else from a
small set of rules over the text (the offline extractor fills only the subject).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import neo4j

from engram.extraction.keyphrases import normalize_key
from graph.consolidation.duplicates import Supersession, load_active, supersede
from graph.consolidation.model import PropositionView, time_key
from graph.cypher import load

_NAME = r"(?P<s>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)"
_OBJECT = r"(?P<o>[^,.;:!?()\[\]\"]+?)"
_END = (
    r"(?=\s*(?:[,.;:!?()\[\]\"]|$| (?:now|since|these days|at the moment|for|and|with|but|last|this|next|in \d|"
    r"yesterday|ago|recently|because|after|before|when|to|where|which|who)\b))"
)
# Objects of these predicates are names (a city, a company, a person): "moved to a new flat" claims nothing.
PROPER_OBJECTS = frozenset({"lives in", "works at", "married to"})
# (predicate, pattern): single-valued relations only, where two different objects cannot both be current.
FUNCTIONAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (predicate, re.compile(pattern + _END))
    for predicate, pattern in (
        (
            "lives in",
            rf"{_NAME} (?:now |currently |still )?(?:lives|is living|resides|has moved|moved|relocated)"
            rf" (?:in|to) {_OBJECT}",
        ),
        ("works at", rf"{_NAME} (?:now |currently |still )?(?:works|is working) (?:at|for) {_OBJECT}"),
        ("works as", rf"{_NAME} (?:now |currently |still )?(?:works|is working) as (?:a |an )?{_OBJECT}"),
        ("married to", rf"{_NAME} (?:is|got|was) married to {_OBJECT}"),
        ("age", rf"{_NAME} is (?P<o>\d{{1,3}}) years? old"),
        ("favourite", rf"{_NAME}(?:'s|’s) (?:favou?rite|fave) (?P<what>[a-z]+(?: [a-z]+)?) is {_OBJECT}"),
        ("birthday", rf"{_NAME}(?:'s|’s) birthday is (?:on )?{_OBJECT}"),
    )
)
FUNCTIONAL_PREDICATES = frozenset({"lives in", "works at", "works as", "married to", "age", "birthday"})


@dataclass(frozen=True)
class Claim:
    proposition: PropositionView
    subject: str
    predicate: str
    object: str


def _clean_object(text: str) -> str:
    words = text.strip().split()
    while words and words[0].lower() in {"the", "a", "an"}:
        words = words[1:]
    return normalize_key(" ".join(words))


def claim_of(p: PropositionView) -> Claim | None:
    """The single-valued claim a proposition makes, if any."""
    if p.predicate and p.object:
        predicate = " ".join(p.predicate.lower().replace("_", " ").split())
        subject = p.subject or ""
        if subject and (predicate in FUNCTIONAL_PREDICATES or predicate.startswith("favourite ")):
            return Claim(p, subject.casefold(), predicate, _clean_object(p.object))
    for predicate, pattern in FUNCTIONAL_PATTERNS:
        match = pattern.search(p.text)
        if not match:
            continue
        name = match.group("s")
        if predicate == "favourite":
            predicate = f"favourite {match.group('what')}"
        raw = re.sub(r"^(?:the|a|an)\s+", "", match.group("o").strip(), flags=re.IGNORECASE)
        if predicate in PROPER_OBJECTS and not raw[:1].isupper():
            continue
        obj = _clean_object(raw)
        if obj:
            return Claim(p, (p.subject or name).casefold(), predicate, obj)
    return None


def compatible(a: str, b: str, same: Callable[[str, str], bool] | None = None) -> bool:
    """Objects that can both be true: equal, one a word-wise part of the other ('new york' / 'new york city'),
    or aliases of one another."""
    if a == b:
        return True
    wa, wb = f" {a} ", f" {b} "
    if wa in wb or wb in wa:
        return True
    return bool(same and same(a, b))


@dataclass(frozen=True)
class ReliabilityWeights:
    recency: float = 0.5
    support: float = 0.3
    quality: float = 0.2


def reliability(claims: Sequence[Claim], weights: ReliabilityWeights | None = None) -> dict[str, float]:
    """Score in [0, 1] per proposition id: recency within the group (valid_from, else recorded_at), number of
    supporting episodes (log-scaled against the best supported), source quality times confidence."""
    w = weights or ReliabilityWeights()
    times = [time_key(c.proposition.valid_from or c.proposition.recorded_at) for c in claims]
    known = [t for t in times if math.isfinite(t)]
    oldest, newest = (min(known), max(known)) if known else (0.0, 0.0)
    top_support = max((c.proposition.support for c in claims), default=1)
    scores = {}
    for claim, t in zip(claims, times, strict=True):
        p = claim.proposition
        recency = 0.0 if not math.isfinite(t) else 1.0 if newest == oldest else (t - oldest) / (newest - oldest)
        support = math.log1p(p.support) / math.log1p(max(top_support, 1))
        quality = p.source_quality * max(0.0, min(1.0, p.confidence))
        scores[p.id] = w.recency * recency + w.support * support + w.quality * quality
    return scores


def plan_conflicts(
    views: Sequence[PropositionView],
    same: Callable[[str, str], bool] | None = None,
    weights: ReliabilityWeights | None = None,
) -> list[Supersession]:
    """For each (subject, predicate) with incompatible objects: the most reliable claim supersedes every claim
    incompatible with it."""
    groups: dict[tuple[str, str], list[Claim]] = {}
    for view in views:
        claim = claim_of(view)
        if claim is not None:
            groups.setdefault((claim.subject, claim.predicate), []).append(claim)
    plans = []
    for claims in groups.values():
        if len(claims) < 2 or all(compatible(claims[0].object, c.object, same) for c in claims[1:]):
            continue
        scores = reliability(claims, weights)
        winner = max(claims, key=lambda c: (scores[c.proposition.id], c.proposition.id))
        for claim in claims:
            if claim is not winner and not compatible(winner.object, claim.object, same):
                plans.append(
                    Supersession(
                        winner.proposition.id,
                        claim.proposition.id,
                        "conflict",
                        0.0,
                        scores[winner.proposition.id] - scores[claim.proposition.id],
                    )
                )
    return plans


def alias_pairs(driver: neo4j.Driver, database: str, space: str) -> set[frozenset[str]]:
    records, _, _ = driver.execute_query(
        load("consolidate/alias_keys"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    return {frozenset((r["a"], r["b"])) for r in records}


@dataclass(frozen=True)
class ConflictOutcome:
    groups: int
    resolved: int
    replaced_ids: list[str]


def resolve_conflicts(
    driver: neo4j.Driver, database: str, space: str, weights: ReliabilityWeights | None = None
) -> ConflictOutcome:
    views, _ = load_active(driver, database, space)
    aliases = alias_pairs(driver, database, space)
    plans = plan_conflicts(views, lambda a, b: frozenset((a, b)) in aliases, weights)
    replaced = supersede(driver, database, space, plans)
    return ConflictOutcome(
        groups=len({p.survivor for p in plans}), resolved=len(replaced), replaced_ids=sorted(replaced)
    )
