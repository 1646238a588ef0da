"""Concept aliases: `(alias)-[:SAME_AS]->(canonical)` between keys that name the same thing ("nyc" / "new york
city", "mom" / "mother", "colour" / "color"), from embeddings plus string evidence. Recall activates a matched
concept's aliases too (cypher/recall/concepts_by_key.cypher).

A pair is an alias when one key is the acronym of the other, when both are in one group of a small lexicon of
kinship and everyday synonyms, when they differ only in spacing or in the spelling or inflection of their words,
or when their embeddings are nearly identical; each string rule also needs the embeddings to agree, and keys
with different numbers never alias.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.consolidation.model import unit_rows
from graph.consolidation.text import is_acronym_of, spelling_variant
from graph.cypher import load

BLOCK = 2048
LEXICON: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split(","))
    for group in (
        "mom,mother,mum,mommy,mama,momma",
        "dad,father,daddy,papa,pop",
        "grandma,grandmother,granny,nana",
        "grandpa,grandfather,granddad",
        "bro,brother",
        "sis,sister",
        "kid,child",
        "tv,television",
        "bf,boyfriend",
        "gf,girlfriend",
        "hubby,husband",
        "doc,doctor",
        "bike,bicycle",
        "photo,photograph,pic,picture",
        "movie,film",
        "car,automobile",
        "vacation,holiday",
        "fall,autumn",
    )
)
_LEXICON_GROUP = {word: group for group in LEXICON for word in group}
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class AliasRules:
    embedding_only: float = 0.92  # cosine that alone makes two keys aliases
    spelling_cosine: float = 0.7  # spelling variants (text.spelling_variant) whose embeddings also agree
    acronym_cosine: float = 0.25
    lexicon_cosine: float = 0.4


@dataclass(frozen=True)
class ConceptView:
    id: str
    key: str
    df: int


@dataclass(frozen=True)
class Alias:
    alias: str  # concept id
    canonical: str
    reason: str
    score: float


def alias_reason(a: str, b: str, cosine: float, rules: AliasRules) -> str | None:
    """Why keys `a` and `b` name the same thing, or None."""
    if a == b or _DIGITS.findall(a) != _DIGITS.findall(b):
        return None
    if is_acronym_of(a, b) or is_acronym_of(b, a):
        return "acronym" if cosine >= rules.acronym_cosine else None
    group = _LEXICON_GROUP.get(a)
    if group is not None and b in group:
        return "lexicon" if cosine >= rules.lexicon_cosine else None
    if cosine >= rules.spelling_cosine and spelling_variant(a, b):
        return "variant"
    if cosine >= rules.embedding_only:
        return "embedding"
    return None


def canonical_first(a: ConceptView, b: ConceptView) -> tuple[ConceptView, ConceptView]:
    """(canonical, alias): the more used key, then the longer (spelled-out) one, then the smaller id."""

    canonical, alias = sorted((a, b), key=lambda c: (-c.df, -len(c.key), c.id))
    return canonical, alias


def plan_aliases(
    concepts: Sequence[ConceptView], vectors: NDArray[np.float32], rules: AliasRules | None = None
) -> list[Alias]:
    rules = rules or AliasRules()
    pairs: set[tuple[int, int]] = set()
    floor = min(rules.spelling_cosine, rules.embedding_only)
    for start in range(0, len(concepts), BLOCK):
        sims = vectors[start : start + BLOCK] @ vectors.T
        rows, cols = np.nonzero(sims >= floor)
        pairs.update((start + r, c) for r, c in zip(rows.tolist(), cols.tolist(), strict=True) if start + r < c)
    by_key = {c.key: i for i, c in enumerate(concepts)}
    by_initials: dict[str, list[int]] = {}
    for i, c in enumerate(concepts):
        if len(c.key.split()) >= 2:
            by_initials.setdefault("".join(w[0] for w in c.key.split()), []).append(i)
    for i, c in enumerate(concepts):
        partners = by_initials.get(c.key.replace(" ", ""), []) + [
            by_key[w] for w in _LEXICON_GROUP.get(c.key, ()) if w in by_key
        ]
        pairs.update((min(i, j), max(i, j)) for j in partners if j != i)
    aliases = []
    for i, j in sorted(pairs):
        cosine = float(vectors[i] @ vectors[j])
        reason = alias_reason(concepts[i].key, concepts[j].key, cosine, rules)
        if reason:
            canonical, alias = canonical_first(concepts[i], concepts[j])
            aliases.append(Alias(alias.id, canonical.id, reason, round(cosine, 4)))
    return aliases


@dataclass(frozen=True)
class AliasOutcome:
    aliases: int  # SAME_AS edges of the space now
    added: int


def link_aliases(driver: neo4j.Driver, database: str, space: str, rules: AliasRules | None = None) -> AliasOutcome:
    records, _, _ = driver.execute_query(
        load("consolidate/concepts_for_aliases"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    concepts = [ConceptView(r["id"], r["key"], int(r["df"] or 0)) for r in records]
    vectors = unit_rows([r["embedding"] for r in records])
    aliases = plan_aliases(concepts, vectors, rules)
    rows = [a.__dict__ for a in aliases]
    with driver.session(database=database) as session:
        record = session.execute_write(
            lambda tx: tx.run(load("consolidate/merge_aliases"), space=space, aliases=rows).single(strict=True)
        )
    return AliasOutcome(aliases=int(record["total"]), added=int(record["added"]))
