"""Relevance: each ranked item's calibrated relevance in [0, 1], the question's concepts that the space's concept
keys match (graph/recall/logic/relevance.py), and the names it uses that nothing the scope remembers mentions. Prune
then leaves out what falls below the request's minimum, or everything where a name is unmentioned, and says why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from graph.recall.hits import ConceptHit
from graph.recall.logic.relevance import (
    Analysed,
    QueryCoverage,
    calibrated,
    content_terms,
    item_features,
    query_coverage,
    question_concepts,
    with_support,
)
from graph.recall.query import name_forms, names_used
from graph.recall.run import RecallRun
from graph.recall.searcher import Searcher
from graph.recall.steps.base import Step

TRACED_ITEMS = 10  # the first items' features in the trace


class Relevance(Step[QueryCoverage]):
    name = "relevance"

    def find(self, run: RecallRun) -> QueryCoverage:
        phrases, weights, found, unmentioned = run.early_result(self.name, self.early(run))
        nearby = [concept.key for concept in run.query_concepts]
        coverage = query_coverage(phrases, weights, [concept.key for concept in found], nearby)
        if unmentioned is None:
            return coverage
        return replace(coverage, unmentioned=unmentioned)

    def early(self, run: RecallRun) -> Callable[[], Lookups]:
        return partial(_lookups, run)

    def apply(self, run: RecallRun, found: QueryCoverage | None) -> None:
        if found is None:
            return
        run.coverage = found
        model = run.config.abstention.relevance
        weights = model.model_dump(exclude={"intercept"})
        terms = content_terms(found.phrases, found.weights)
        top = max((item.score for item in run.ranked), default=0.0)
        traced: list[dict[str, Any]] = []
        analysed = Analysed()  # the items' texts, each analysed once
        every = with_support(
            [
                item_features(
                    item.components.get("similarity", 0.0),
                    item.score,
                    top,
                    [item.text, *(proof.text for proof in item.provenance)],
                    found,
                    terms,
                    analysed,
                )
                for item in run.ranked
            ]
        )
        for item, features in zip(run.ranked, every, strict=True):
            item.relevance = calibrated(features, model.intercept, weights)
            if len(traced) < TRACED_ITEMS:
                traced.append({"id": item.id, "relevance": round(item.relevance, 4)} | _rounded(features))
        run.trace.add(
            "relevance",
            concepts=found.phrases,
            matched=found.matched,
            missing=found.missing,
            near=found.near,
            unmentioned=found.unmentioned,
            concept_coverage=round(found.share, 4),
            min_relevance=run.min_relevance,
            items=traced,
        )


# The question's phrases and their weights, the space's concepts keyed as their spans, the names nothing mentions
# (None: the names gate is off).
Lookups = tuple[list[str], dict[str, float], list[ConceptHit], list[str] | None]


def _lookups(run: RecallRun) -> Lookups:
    """What the step reads of memory: it needs only the question, so `Ahead` starts it early."""
    config, query = run.config, run.request.query
    phrases, weights = question_concepts(query, config.abstention.relevance_phrases)
    lookups = QueryCoverage(phrases, weights, [], []).lookups()
    found = run.searcher.concepts_by_key(lookups) if lookups else []
    unmentioned = (
        unmentioned_names(run.searcher, query, config.abstention.unmentioned_typo_from)
        if config.abstention.unmentioned_names
        else None
    )
    return phrases, weights, found, unmentioned


def _rounded(features: dict[str, float]) -> dict[str, float]:
    return {name: round(value, 4) for name, value in features.items()}


def unmentioned_names(searcher: Searcher, query: str, typo_from: int = 0) -> list[str]:
    """The names the query uses (`names_used`) of which no word is mentioned in what the searcher's scope holds, in
    any of its forms (`name_forms`: "Hawaiian" mentions Hawaii). A word of `typo_from` letters or more (0: none) is
    also mentioned by a remembered word one edit away: a long name is more often misspelt ("Brittish") than
    confused with another word that close."""
    names = names_used(query)
    words = sorted({word for name in names for word in name})
    forms = {word: name_forms(word) for word in words}
    asked = sorted({form for word in words for form in forms[word]})
    missing = set(searcher.unmentioned(asked)) if asked else set()
    absent = {word for word in words if all(form in missing for form in forms[word])}
    long = sorted(word.lower() for word in absent if typo_from and len(word) >= typo_from)
    if long:
        near = set(long) - set(searcher.unmentioned(long, typos=True))
        absent = {word for word in absent if word.lower() not in near}
    return [" ".join(name) for name in names if all(word in absent for word in name)]
