"""Facts first: a question about a state now ("Where does Maribel live?", "What car do I drive?", read by
graph/recall/reading.py) is answered from the facts memory holds about its subject (engram/facts/).

The subject's fact closest in meaning to the question, whichever version, names the asked slot; that slot's current
fact goes first, then its earlier versions, newest first, each marked with what replaced it; the rest of the ranking
follows. A change told in other words than the question ("sold the Volvo and bought a Skoda") still answers "What car
does she drive?", because the slot is found through any of its versions.

When memory holds facts about the subject but none is close to what the question asks (cosine below
`fact_min_similarity`), the answer is "nothing relevant", with the reason ("nothing known about Maribel's blood type"):
prune returns nothing unless the request sets its own `minRelevance` (graph/recall/steps/prune.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from engram.facts.slots import names_an_attribute
from graph.recall.candidates import Ranked
from graph.recall.hydration import hydrate_into
from graph.recall.models import ItemKind
from graph.recall.reading import Form
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass
class SubjectFacts:
    states: list[dict[str, Any]]  # the subject's state facts that may name an attribute, each with its "cosine"
    mentioned: list[str]  # where no fact is close: the ranked memories close to it, or the nouns memory mentions


class FactsFirst(Step[SubjectFacts]):
    name = "facts first"

    def runs(self, run: RecallRun) -> bool:
        reading = run.reading
        return run.config.facts.fact_answers and reading.form is Form.STATE_NOW and bool(reading.subject)

    def find(self, run: RecallRun) -> SubjectFacts:
        """The subject's state facts, each with the cosine between what the question asks and what the fact says,
        both without the subject: the name they share says nothing of which attribute is asked."""
        subject = run.reading.subject
        assert subject is not None  # runs()
        states = [
            f
            for f in run.searcher.subject_facts(subject, run.vector)
            if f["slot"] and not f["event"] and names_an_attribute(f["frame"])
        ]
        if not states:
            return SubjectFacts([], [])
        texts = [run.reading.content or run.request.query] + [without_subject(f["text"], subject) for f in states]
        vectors = run.tools.embed(texts)
        unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        # A fact whose slot is one the question's frames name answers it whatever the words ("Where do I study?"
        # names `school`, the slot of "is enrolled at X").
        asked = set(run.tools.slots.name(run.reading.frames)) if run.tools.slots else set()
        # A noun the question asks by may name the kind of value ("What city does Tom call home?": Madrid is one).
        kinds = _kinds(run, [str(f["value"]) if f.get("value_type") in _NAMED_KINDS else "" for f in states])
        for i, (fact, cosine) in enumerate(zip(states, (unit[1:] @ unit[0]).tolist(), strict=True)):
            fact["cosine"] = 1.0 if fact["slot"] in asked else max(cosine, kinds[i] if kinds else cosine)
        bar = run.config.facts.fact_min_similarity
        if max(f["cosine"] for f in states) >= bar:
            return SubjectFacts(states, [])
        # No fact is close: does memory say anything else of what the question asks? A ranked memory that is no fact
        # of the subject's ("When is Sam's dental appointment?": "My dentist moved my check-up to Thursday"), or a
        # word it names ("What do sunflowers represent to Caroline?" where sunflowers are spoken of).
        items = run.ranked[: run.config.facts.fact_items_read]
        if items:
            said = run.tools.embed([without_subject(item.text, subject) for item in items])
            said = said / np.maximum(np.linalg.norm(said, axis=1, keepdims=True), 1e-9)
            near = run.config.facts.fact_item_similarity
            close = [item.id for item, c in zip(items, (said @ unit[0]).tolist(), strict=True) if c >= near]
            if close:
                return SubjectFacts(states, close[:3])
        nouns = run.reading.nouns
        unmentioned = set(run.searcher.unmentioned(nouns)) if nouns else set()
        return SubjectFacts(states, [n for n in nouns if n not in unmentioned])

    def apply(self, run: RecallRun, found: SubjectFacts | None) -> None:
        states = found.states if found else []
        reading = run.reading
        if not states or found is None:
            run.trace.add(self.name, subject=reading.subject, facts=0)
            return
        best = max(states, key=lambda f: (f["cosine"], f["valid_from"] or "", f["id"]))
        cosine = float(best["cosine"])
        detail: dict[str, Any] = {"subject": reading.subject, "facts": len(states), "closest": best["id"]}
        detail["cosine"] = round(cosine, 4)
        if cosine < run.config.facts.fact_min_similarity:
            if found.mentioned or not reading.nouns or reading.plural:
                # Memory speaks of what it asks, though in no fact of the subject's; or it names nothing to look for
                # ("What does Melanie do?"), or asks for a set ("What hobbies does Ana have?": bouldering and pottery,
                # no fact named a hobby): the ranking answers.
                run.trace.add(self.name, **detail, mentioned=found.mentioned)
                return
            asked = f"{reading.subject}'s {reading.asked}" if reading.asked else str(reading.subject)
            run.unfilled = f"nothing known about {asked}"
            run.trace.add(self.name, **detail, unfilled=run.unfilled)
            return
        versions = [f for f in states if f["slot"] == best["slot"]]
        current = [f for f in versions if f["current"]]
        if len(current) != 1:
            # Several values hold at once: no one current fact to answer with; or none does (the state ended, or a
            # correction, which is no fact of the slot, replaced it: the version steps put that one first).
            run.trace.add(self.name, **detail, slot=best["slot"], current=len(current))
            return
        newest_first = sorted(versions, key=lambda f: (f["valid_from"] or "", f["id"]), reverse=True)
        order = [f["id"] for f in newest_first if f["current"]] + [f["id"] for f in newest_first if not f["current"]]
        ranked = {item.id: item for item in run.ranked}
        missing: list[tuple[str, float | None]] = [
            (i, None) for i in order if i not in ranked and i not in run.searcher.hydrated
        ]
        if missing:
            hydrate_into(run, "propositions", missing)
        top = run.ranked[0] if run.ranked else None
        placed = [item for i in order if (item := ranked.get(i) or _brought_in(run, i, top)) is not None]
        chosen = {item.id for item in placed}
        run.ranked = placed + [item for item in run.ranked if item.id not in chosen]
        if top is not None:
            for item in placed:  # as high and as relevant as the best answer the ranking had
                item.score = max(item.score, top.score)
                if top.relevance is not None:
                    item.relevance = max(item.relevance or 0.0, top.relevance)
        run.trace.add(self.name, **detail, slot=best["slot"], first=[item.id for item in placed])


def _brought_in(run: RecallRun, item_id: str, top: Ranked | None) -> Ranked | None:
    row: dict[str, Any] | None = run.searcher.hydrated.get(item_id)
    if row is None:
        return None  # deleted, or out of the request's scope
    return Ranked(
        id=item_id,
        kind=ItemKind.PROPOSITION,
        text=row["text"],
        score=top.score if top is not None else 1.0,
        components={"similarity": float(row["similarity"] or 0.0)},
        provenance=row["provenance"],
        valid_from=row["valid_from"],
        found_by=["facts of the asked slot"],
        superseded_by=row.get("superseded_by"),
        valid_to=row.get("valid_to"),
    )


# A noun the wh-word asks by names the kind of a named value from this cosine on ("city" and "Madrid": 0.53, "Lisbon":
# 0.57; "city" and "Portuguese": 0.31). Only names have a kind a noun can name: a thing's value is its own words.
KIND_COSINE = 0.5
_NAMED_KINDS = frozenset({"GPE", "PERSON", "ORG", "NORP", "LANGUAGE"})


def _kinds(run: RecallRun, values: list[str]) -> list[float]:
    """For each value ("" for none), the cosine to the noun the question's wh-word asks by where it names the value's
    kind (at least KIND_COSINE), else -1; [] when the question asks by no noun."""
    nouns = run.reading.asked_kinds
    if not nouns or not any(values):
        return []
    vectors = run.tools.embed([*nouns, *values])
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    best = (unit[len(nouns) :] @ unit[: len(nouns)].T).max(axis=1)
    return [float(c) if c >= KIND_COSINE and v else -1.0 for c, v in zip(best.tolist(), values, strict=True)]


def without_subject(text: str, subject: str) -> str:
    """A fact's text without its subject's name, possessive or "<teller> said:" ("Maribel's dentist is Dr. Moreau."
    -> "dentist is Dr. Moreau.")."""
    text = re.sub(r"^[^:]{1,80} said: ", "", text)
    for word in subject.split():
        text = re.sub(rf"\b{re.escape(word)}(?:['\u2019]s?)?(?!\w)", "", text)
    return " ".join(text.split())
