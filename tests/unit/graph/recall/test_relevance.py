"""Relevance (graph/recall/logic/relevance.py, steps/relevance.py) and the cut-off with its reason (steps/prune.py),
over the in-memory chat memory of recall_support.py: Alice, Bob, Rex the beagle, Berlin / Lisbon, hiking in Sintra."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from graph.recall.config import RelevanceModel
from graph.recall.engine import PIPELINE
from graph.recall.logic.prune import prune
from graph.recall.logic.relevance import (
    FEATURES,
    QueryCoverage,
    calibrated,
    content_terms,
    held_terms,
    item_features,
    nothing_relevant,
    phrase_coverage,
    query_coverage,
    question_concepts,
    term_coverage,
    with_support,
)
from graph.recall.models import RecallRequest, RecallResult
from graph.recall.steps.earlier_versions import EarlierVersionsBelow
from graph.recall.steps.prune import Prune
from graph.recall.steps.relevance import Relevance
from tests.unit.graph.recall.recall_support import (
    SPACE,
    MakeEngine,
    MakeRun,
    count_tokens,
    perform,
    recall_config,
    request,
    trace_detail,
)

# A calibration that the toy embedder's memory separates: the question's concepts count most.
MODEL = RelevanceModel(
    intercept=-5.0,
    similarity=2.0,
    score_share=1.0,
    term_coverage=2.0,
    phrase_coverage=1.0,
    missing_coverage=0.0,
    concept_coverage=3.0,
    support=0.0,
)

MINIMUM = 0.45  # between the unasked question's best item (0.37) and the answerable ones' (0.8 and more)


def coverage_of(query: str, keys: list[str]) -> QueryCoverage:
    phrases, weights = question_concepts(query, 8)
    return query_coverage(phrases, weights, keys)


# -- the question's concepts against the space's keys --------------------------------------------------------------


def test_a_phrase_no_key_matches_is_missing_and_its_words_that_are_keys_are_near() -> None:
    coverage = coverage_of("How often do I play table tennis?", ["tennis", "play", "often"])
    assert coverage.missing == ["play table tennis"] and coverage.matched == ["often"]
    assert coverage.near == {"play table tennis": ["play", "tennis"]}
    assert coverage.share == pytest.approx(1.0 / 4.0)  # a three-word phrase weighs 3, a word 1


def test_the_concepts_nearest_the_question_sharing_a_word_are_near_a_missing_phrase() -> None:
    phrases, weights = question_concepts("How often does Priya play table tennis?", 8)
    coverage = query_coverage(phrases, weights, ["priya"], nearby=["tennis ball", "beagle", "priya"])
    assert coverage.near == {"play table tennis": ["tennis ball"]}


def test_a_key_of_two_words_of_the_phrase_matches_it() -> None:
    coverage = coverage_of("How often do I play table tennis?", ["table tennis"])
    assert coverage.matched == ["play table tennis"] and coverage.missing == ["often"]


def test_keys_match_phrases_as_the_schema_writes_them_and_weigh_by_the_phrases_score() -> None:
    coverage = coverage_of("What is Priya's favourite movie?", ["priya"])
    assert coverage.matched == ["Priya"] and coverage.missing == ["favourite movie"]
    assert coverage.share == pytest.approx(2.5 / 4.5)  # a name weighs 2.5, a two-word phrase 2
    assert coverage_of("What is Priya's favourite movie?", ["priya", "favourite movie"]).share == 1.0


def test_a_question_naming_no_concept_is_fully_covered() -> None:
    coverage = coverage_of("What is it?", [])
    assert coverage.phrases == [] and coverage.share == 1.0


def test_a_name_is_a_concept_of_its_own() -> None:
    coverage = coverage_of("What does Rex eat?", ["rex"])
    assert coverage.matched == ["Rex"] and coverage.missing == ["eat"]


def test_the_lookups_are_every_run_of_each_phrases_words() -> None:
    coverage = coverage_of("play table tennis", [])
    assert coverage.lookups() == ["play", "play table", "play table tennis", "table", "table tennis", "tennis"]


# -- the item's features ----------------------------------------------------------------------------------------------


def test_term_and_phrase_coverage_count_what_the_items_texts_hold() -> None:
    phrases, weights = ["table tennis", "friends"], {"table tennis": 2.0, "friends": 1.0}
    terms = content_terms(phrases, weights)
    tennis = held_terms(["Priya plays tennis with her friends"])
    assert term_coverage(terms, tennis) == pytest.approx((2.0 + 1.0) / (2.0 + 2.0 + 1.0))  # not "table"
    assert phrase_coverage(phrases, weights, tennis) == pytest.approx(1.0 / 3.0)  # "friends" whole, not the phrase
    both = held_terms(["Priya plays table tennis", "with her friends"])
    assert term_coverage(terms, both) == 1.0 and phrase_coverage(phrases, weights, both) == 1.0


def test_item_features_are_the_declared_features() -> None:
    coverage = coverage_of("table tennis", ["tennis"])
    features = item_features(0.4, 0.3, 0.6, ["tennis"], coverage, content_terms(coverage.phrases, coverage.weights))
    (supported,) = with_support([features])
    assert list(supported) == list(FEATURES) and supported["support"] == features["missing_coverage"]
    assert features["score_share"] == 0.5 and features["similarity"] == 0.4
    assert features["concept_coverage"] == coverage.share == 0.0
    assert features["missing_coverage"] == 0.0  # "table tennis" has no key, and "tennis" alone is not it
    held = item_features(0.4, 0.3, 0.6, ["table tennis"], coverage, content_terms(coverage.phrases, coverage.weights))
    assert held["missing_coverage"] == 1.0


# -- the calibration --------------------------------------------------------------------------------------------------


def test_the_calibration_is_a_logistic_of_the_weighted_features() -> None:
    zero = dict.fromkeys(FEATURES, 0.0)
    weights = MODEL.model_dump(exclude={"intercept"})
    assert calibrated(zero, 0.0, weights) == 0.5
    assert calibrated(zero, MODEL.intercept, weights) == pytest.approx(1 / (1 + math.exp(5.0)))
    ones = dict.fromkeys(FEATURES, 1.0)
    z = MODEL.intercept + sum(weights.values())
    assert calibrated(ones, MODEL.intercept, weights) == pytest.approx(1 / (1 + math.exp(-z)))
    for name in (n for n in FEATURES if weights[n] > 0):  # more of a feature with a positive weight: more relevant
        assert calibrated(zero | {name: 1.0}, MODEL.intercept, weights) > calibrated(zero, MODEL.intercept, weights)
    assert 0.0 < calibrated(dict.fromkeys(FEATURES, -1e6), 0.0, weights) < 1e-20  # no overflow, still in (0, 1)


def test_every_ranked_item_gets_a_relevance_and_the_trace_names_the_missing_concept(make_run: MakeRun) -> None:
    config = recall_config(relevance=MODEL)
    run = make_run("What is Alice's favourite movie?", config)
    perform(
        run, *(step for step in PIPELINE if not isinstance(step, (Relevance, EarlierVersionsBelow, Prune))), Relevance()
    )
    assert run.ranked and all(item.relevance is not None and 0 < item.relevance < 1 for item in run.ranked)
    detail = trace_detail(run, "relevance")
    assert detail["matched"] == ["Alice"] and detail["missing"] == ["favourite movie"]
    assert [entry["id"] for entry in detail["items"]] == [item.id for item in run.ranked][: len(detail["items"])]


# -- the cut-off and the reason ---------------------------------------------------------------------------------------


def test_an_unasked_concept_empties_the_answer_with_a_reason_naming_it(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(relevance=MODEL, min_relevance=MINIMUM))
    result = engine.recall(request("What is Alice's favourite movie?"))
    assert result.items == [] and result.sources == [] and result.tokens == 0
    assert result.reason is not None and "below the minimum 0.45" in result.reason
    assert "'favourite movie'" in result.reason
    pruned = trace_detail_of(result, "rerank and prune")["pruned"]
    assert pruned and all(entry["reason"].startswith("best relevance 0.3") for entry in pruned)


def test_an_answerable_question_is_still_answered_at_the_same_minimum(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(relevance=MODEL, min_relevance=MINIMUM))
    result = engine.recall(request("What does Rex eat?"))
    assert {"p_salmon", "p_daily"} <= {item.id for item in result.items} and result.reason is None
    # The minimum gates the answer, not each item: the lower items of an answered question stay, with their relevance.
    relevances = [item.relevance or 0.0 for item in result.items]
    assert max(relevances) >= MINIMUM > min(relevances)


def test_a_requests_minimum_overrides_the_configs(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config(relevance=MODEL, min_relevance=MINIMUM))
    everything = engine.recall(request("What is Alice's favourite movie?", min_relevance=0.0))
    assert everything.items and everything.reason is None
    strict = engine.recall(request("What does Rex eat?", min_relevance=1.0))
    assert strict.items == [] and strict.reason is not None


def test_a_name_nothing_mentions_empties_the_answer_and_is_named(make_engine: MakeEngine) -> None:
    engine = make_engine(recall_config())
    result = engine.recall(request("Does Alice still live in Madrid?"))
    assert result.items == [] and result.reason == "nothing relevant: nothing in memory mentions 'Madrid'"
    assert trace_detail_of(result, "relevance")["unmentioned"] == ["Madrid"]
    pruned = trace_detail_of(result, "rerank and prune")["pruned"]
    assert pruned and all(entry["reason"] == "memory never mentions Madrid" for entry in pruned)
    # Alice is never mentioned in a text, but she speaks: a speaker's name is mentioned.
    assert engine.recall(request("Does Alice still live in Lisbon?")).items
    # A name is mentioned where any of its words is: Rex is, whatever his surname.
    assert engine.recall(request("What does Rex Miller eat?")).items
    carol = engine.recall(request("Does Alice know Carol Miller?"))
    assert carol.items == [] and carol.reason == "nothing relevant: nothing in memory mentions 'Carol Miller'"
    # The gate is a knob of the configuration.
    assert make_engine(recall_config(unmentioned_names=False)).recall(request("Does Alice live in Madrid?")).items


def test_a_near_concept_is_named_with_what_memory_holds() -> None:
    coverage = coverage_of("How often does Alice play table tennis?", ["alice", "tennis", "often"])
    reason = nothing_relevant(coverage, 0.05, 0.2)
    assert coverage.missing == ["play table tennis"]
    assert "'play table tennis' (memory holds 'tennis')" in reason and "0.05" in reason and "0.20" in reason
    assert nothing_relevant(coverage, None, 0.2) == "nothing relevant: memory holds nothing that matches the question"


def test_prune_returns_the_ranking_when_its_best_item_reaches_the_minimum_and_nothing_otherwise(
    make_run: MakeRun,
) -> None:
    run = make_run("What does Rex eat?", recall_config(relevance=MODEL))
    perform(run, *PIPELINE[:-1])
    best = max(item.relevance or 0.0 for item in run.ranked)
    kept, pruned = prune(run.ranked, 10_000, 200, count_tokens, best)
    assert [i.id for i in kept] == [r.id for r in run.ranked] and pruned == []
    kept, pruned = prune(run.ranked, 10_000, 200, count_tokens, best + 0.01)
    assert kept == [] and [p["id"] for p in pruned] == [r.id for r in run.ranked]
    kept, _ = prune(run.ranked, 10_000, 3, count_tokens, 0.0)  # the limit still applies
    assert [i.id for i in kept] == [r.id for r in run.ranked[:3]]


def test_nothing_ranked_says_memory_holds_nothing(make_run: MakeRun) -> None:
    run = make_run("What does Rex eat?", recall_config(relevance=MODEL, min_relevance=0.5))
    run.ranked = []
    Prune()(run)
    assert run.items == [] and run.reason == "nothing relevant: memory holds nothing that matches the question"


def test_min_relevance_outside_0_1_is_refused_naming_the_field() -> None:
    for bad in (-0.1, 1.5):
        with pytest.raises(ValidationError, match="min_relevance"):
            RecallRequest(space=SPACE, query="q", min_relevance=bad)
        with pytest.raises(ValidationError, match="min_relevance"):
            recall_config(min_relevance=bad)


def trace_detail_of(result: RecallResult, name: str) -> dict[str, Any]:
    (detail,) = [step.detail for step in result.trace if step.step == name]
    return detail
