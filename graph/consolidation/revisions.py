"""Revisions: a later statement that says something else about the same subject's same attribute ("I moved to Lisbon"
... months later "I moved from Lisbon to Madrid") supersedes the earlier one, so the memory itself says which is
current and recall needs no cue in the question's wording.

No list of verbs or attributes: a pair is a revision when
- both are what a person says of themselves: the statement's subject is its teller (the extractor names the subject of
  "I ..." after the speaker), or the statement names its one teller ("By the way, User just finished ..."), and it
  names no other speaker of the space (then it is about their conversation: "Assistant is happy to help User"); it is
  neither a question nor a report of what was said (the extractor's "X said: ...", a sentence about no one) nor one of
  many statements of a long utterance (more than `max_statements`: an explanation, not a report of one's state; on
  LongMemEval this is what leaves out an assistant's replies);
- the later one speaks of a later time in the world (`valid_from`, at least `min_gap_s` later);
- the two are close in meaning as wholes (cosine >= `statement_cosine`: the same attribute of the subject, and all
  the rest of the statement the same, is most of what a sentence embedding sees);
- they name the same thing again: at least `shared_words` content words in common besides the teller's name (the
  attribute, the old value: "moved ... Lisbon"; a person's two different moments, "felt powerful giving a talk" /
  "wanted to capture everyone's unity", share none); a shared image is an event of its own, never revised;
- and they differ in their value: a concept only one of them mentions has a sibling among those only the other
  mentions (cosine >= `object_cosine`: Lisbon and Madrid are both cities, a 50mm and a 70-200mm both lenses), or
  their quantities differ ("4 projects" / "my 5th project").
Questions and statements leaning on their conversation ("that looks great") claim nothing and are left out.

The earlier one is superseded with reason 'updated' (supersede.cypher): `valid_to` = the later one's `valid_from`
(the world time the new statement speaks of, not the server clock), status 'superseded', both kept for `asOf` and
history. It does not hand its proofs to the later one (`carry` off): the Lisbon turn does not prove Madrid.
Knobs and their measured effect: docs/tuning.md, docs/supersession.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.consolidation.duplicates import Supersession, load_active, supersede
from graph.consolidation.model import PropositionView, unit_rows, view_of
from graph.consolidation.text import content_tokens, context_bound, is_question, reported, shared_image, values
from graph.cypher import load


@dataclass(frozen=True)
class RevisionRules:
    statement_cosine: float = 0.7  # the two statements as wholes: the same attribute of the subject
    object_cosine: float = 0.45  # a value only one names has a sibling the other names (two cities: ~0.5)
    sibling_max: float = 0.95  # ... yet not the same thing spelled twice (that is a restatement)
    min_gap_s: float = 86_400.0  # the later statement speaks of a time at least this much later (a day)
    max_statements: int = 5  # told in an utterance that yielded at most this many statements (0: any)
    shared_words: int = 2  # content words both say, the teller's name left out
    enabled: bool = True


@dataclass(frozen=True)
class Statement:
    """What the rules read of one current proposition."""

    id: str
    text: str
    subject: str  # case-folded: its teller, when it is what the teller says of themselves; else ""
    speakers: frozenset[str]  # case-folded speakers of the episodes that prove it
    valid_from: datetime | None
    concepts: frozenset[str]  # concept ids, the subject's own key left out
    statements: int = 1  # the fewest statements an utterance proving it yielded
    fact: bool = False  # an atomic fact: fact_changes.py decides what replaces it, by its slot and value


def _names(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def self_subject(view: PropositionView, told_by: frozenset[str], others: frozenset[str]) -> str:
    """The teller a statement is about, case-folded: its subject when a teller ("I ..." is extracted as the speaker's
    statement), else its one teller when it names them ("Oh, and User just reached ..."); "" otherwise, and "" when it
    names another of the conversation's speakers (`others`, case-folded): "Assistant is happy to help User", "let
    Assistant know" are about the conversation between them, not a state of the teller's."""
    text = view.text.casefold()
    if any(_names(text, other) for other in others - told_by):
        return ""
    if view.subject and view.subject.casefold() in told_by:
        return view.subject.casefold()
    if len(told_by) == 1:
        (teller,) = told_by
        if _names(text, teller):
            return teller
    return ""


def statements(
    views: Sequence[PropositionView],
    speakers: dict[str, list[str]],
    keys: dict[str, str],
    yields: dict[str, int] | None = None,
) -> list[Statement]:
    """What the rules read of each view; `yields`: the fewest statements an utterance proving it yielded (1 unknown)."""
    out = []
    tellers = frozenset(s.casefold() for told in speakers.values() for s in told if s)
    for view in views:
        told_by = frozenset(s.casefold() for s in speakers.get(view.id, []) if s)
        subject = self_subject(view, told_by, tellers)
        concepts = frozenset(c for c in view.concept_ids if keys.get(c, "").casefold() != subject)
        told_in = (yields or {}).get(view.id, 1)
        out.append(Statement(view.id, view.text, subject, told_by, view.valid_from, concepts, told_in, view.fact))
    return out


def _claims(statement: Statement, rules: RevisionRules) -> bool:
    if statement.fact:
        return False
    if not (statement.subject and statement.speakers and statement.valid_from is not None):
        return False
    if rules.max_statements and statement.statements > rules.max_statements:
        return False
    text = statement.text
    return not (is_question(text) or context_bound(text) or reported(text) or shared_image(text))


def _same_thing(older: Statement, newer: Statement, rules: RevisionRules) -> bool:
    """Whether the two name the same thing again: `shared_words` content words in common (tellers' names aside)."""
    names = frozenset(word for name in older.speakers | newer.speakers for word in content_tokens(name))
    common = (content_tokens(older.text) & content_tokens(newer.text)) - names
    return len(common) >= rules.shared_words


def sibling_values(
    older: Statement, newer: Statement, concept_vectors: dict[str, NDArray[np.float32]], rules: RevisionRules
) -> bool:
    """Whether the two name different values of one attribute: a concept only one mentions close to one the other
    mentions ("from Lisbon to Madrid" names the old value too), not the same thing twice; or different quantities."""
    for mine, theirs in (
        (older.concepts - newer.concepts, newer.concepts),
        (newer.concepts - older.concepts, older.concepts),
    ):
        a = [concept_vectors[c] for c in mine if c in concept_vectors]
        b = [concept_vectors[c] for c in theirs if c in concept_vectors]
        if a and b:
            cosines = np.stack(a) @ np.stack(b).T
            if bool(((cosines >= rules.object_cosine) & (cosines < rules.sibling_max)).any()):
                return True
    quantities_old, quantities_new = values(older.text), values(newer.text)
    return bool(quantities_old and quantities_new and quantities_old != quantities_new)


def plan_revisions(
    items: Sequence[Statement],
    vectors: NDArray[np.float32],
    concept_vectors: dict[str, NDArray[np.float32]],
    rules: RevisionRules | None = None,
) -> list[Supersession]:
    """(newer SUPERSEDES older, reason 'updated') for each revision; an earlier statement is revised by the closest
    later one only, and one revised by a chain (Lisbon, Madrid, Berlin) is superseded by its next version."""
    rules = rules or RevisionRules()
    if not rules.enabled or len(items) < 2:
        return []
    claiming = [i for i, s in enumerate(items) if _claims(s, rules)]
    by_subject: dict[str, list[int]] = {}
    for index in claiming:
        by_subject.setdefault(items[index].subject, []).append(index)
    best: dict[int, tuple[float, int]] = {}  # older index -> (cosine, newer index): its closest later revision
    for group in by_subject.values():
        if len(group) < 2:
            continue
        idx = np.asarray(group)
        sims = vectors[idx] @ vectors[idx].T
        rows, cols = np.nonzero(sims >= rules.statement_cosine)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            older, newer = items[group[r]], items[group[c]]
            assert older.valid_from is not None and newer.valid_from is not None  # _claims
            if (newer.valid_from - older.valid_from).total_seconds() < rules.min_gap_s:
                continue
            if not older.speakers & newer.speakers or not _same_thing(older, newer, rules):
                continue
            if not sibling_values(older, newer, concept_vectors, rules):
                continue
            cosine = float(sims[r, c])
            # The nearest later version first (a chain supersedes step by step), then the closest in meaning.
            key = (-newer.valid_from.timestamp(), cosine)
            known = best.get(group[r])
            if known is None or key > (-items[known[1]].valid_from.timestamp(), known[0]):  # type: ignore[union-attr]
                best[group[r]] = (cosine, group[c])
    return [
        Supersession(items[newer].id, items[older].id, "updated", cosine, carry=False)
        for older, (cosine, newer) in sorted(best.items(), key=lambda kv: items[kv[0]].id)
    ]


def _concepts(rows: Sequence[neo4j.Record]) -> tuple[dict[str, str], dict[str, NDArray[np.float32]]]:
    unit = unit_rows([r["embedding"] for r in rows])
    return {r["id"]: r["key"] or "" for r in rows}, {r["id"]: unit[i] for i, r in enumerate(rows)}


def _speakers_and_concepts(
    driver: neo4j.Driver, database: str, space: str
) -> tuple[dict[str, list[str]], dict[str, int], dict[str, str], dict[str, NDArray[np.float32]]]:
    read = neo4j.RoutingControl.READ
    told, _, _ = driver.execute_query(
        load("consolidate/proposition_speakers"), space=space, database_=database, routing_=read
    )
    concepts, _, _ = driver.execute_query(
        load("consolidate/concept_vectors"), space=space, database_=database, routing_=read
    )
    speakers = {r["id"]: list(r["speakers"]) for r in told}
    return (speakers, {r["id"]: int(r["statements"]) for r in told}, *_concepts(concepts))


@dataclass(frozen=True)
class RevisionOutcome:
    candidates: int  # current statements that could be revised or revise
    revised: int
    replaced_ids: list[str]


def link_revisions(
    driver: neo4j.Driver, database: str, space: str, rules: RevisionRules | None = None
) -> RevisionOutcome:
    """Plans the space's revisions over its current propositions and writes them (supersede.cypher)."""
    rules = rules or RevisionRules()
    if not rules.enabled:
        return RevisionOutcome(0, 0, [])
    views, vectors = load_active(driver, database, space)
    speakers, yields, keys, concept_vectors = _speakers_and_concepts(driver, database, space)
    items = statements(views, speakers, keys, yields)
    plans = plan_revisions(items, vectors, concept_vectors, rules)
    replaced = supersede(driver, database, space, plans)
    return RevisionOutcome(sum(_claims(s, rules) for s in items), len(replaced), sorted(replaced))


def link_revisions_of(
    driver: neo4j.Driver, database: str, space: str, ids: Sequence[str], rules: RevisionRules | None = None
) -> RevisionOutcome:
    """The revisions one ingest's propositions (`ids`) take part in, revising or revised (the ingest pipeline's
    consolidate stage, so a recall right after ingestion finds the current fact first): the rules of `link_revisions`
    over the current propositions about their subjects only, not the whole space."""
    rules = rules or RevisionRules()
    if not rules.enabled or not ids:
        return RevisionOutcome(0, 0, [])
    read = neo4j.RoutingControl.READ
    rows, _, _ = driver.execute_query(
        load("consolidate/revision_neighbours"), space=space, ids=list(ids), database_=database, routing_=read
    )
    if len(rows) < 2:
        return RevisionOutcome(0, 0, [])
    data = [r.data() for r in rows]
    views, vectors = [view_of(row) for row in data], unit_rows([row["embedding"] for row in data])
    mentioned = sorted({c for view in views for c in view.concept_ids})
    concepts, _, _ = driver.execute_query(
        load("consolidate/concept_vectors_of"), space=space, ids=mentioned, database_=database, routing_=read
    )
    keys, concept_vectors = _concepts(concepts)
    told = {row["id"]: list(row["speakers"]) for row in data}
    items = statements(views, told, keys, {row["id"]: min(row["yields"], default=1) for row in data})
    new = set(ids)
    plans = [
        plan
        for plan in plan_revisions(items, vectors, concept_vectors, rules)
        if plan.survivor in new or plan.replaced in new
    ]
    replaced = supersede(driver, database, space, plans)
    return RevisionOutcome(sum(_claims(s, rules) for s in items), len(replaced), sorted(replaced))
