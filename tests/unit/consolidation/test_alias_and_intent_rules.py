"""Alias rules (embeddings plus string evidence) and intent merge planning."""

from __future__ import annotations

import numpy as np

from graph.consolidation.aliases import AliasRules, ConceptView, alias_reason, canonical_first, plan_aliases
from graph.consolidation.intents import IntentView, plan_intent_merges
from graph.consolidation.model import unit_rows

RULES = AliasRules()


def test_alias_reasons() -> None:
    assert alias_reason("nyc", "new york city", 0.4, RULES) == "acronym"
    assert alias_reason("mom", "mother", 0.6, RULES) == "lexicon"
    assert alias_reason("colour", "color", 0.8, RULES) == "variant"
    assert alias_reason("sofa", "couch", 0.95, RULES) == "embedding"


def test_not_aliases() -> None:
    assert alias_reason("mom", "dad", 0.8, RULES) is None
    assert alias_reason("nyc", "new york city", 0.1, RULES) is None  # the embeddings must agree a little
    assert alias_reason("colour", "color", 0.3, RULES) is None
    assert alias_reason("2022 trip", "2023 trip", 0.97, RULES) is None  # different numbers
    assert alias_reason("art", "artist", 0.75, RULES) is None
    assert alias_reason("support group", "support group", 1.0, RULES) is None


def test_canonical_is_the_more_used_key() -> None:
    nyc, city = ConceptView("1", "nyc", 1), ConceptView("2", "new york city", 5)
    assert canonical_first(nyc, city) == (city, nyc)
    assert canonical_first(city, nyc) == (city, nyc)


def test_plan_aliases_finds_acronyms_without_close_embeddings() -> None:
    concepts = [ConceptView("1", "nyc", 1), ConceptView("2", "new york city", 3), ConceptView("3", "pottery", 2)]
    vectors = unit_rows([[1.0, 1.0, 0.0], [1.0, 0.2, 0.0], [0.0, 0.0, 1.0]], dimensions=3)
    aliases = plan_aliases(concepts, vectors, RULES)
    assert [(a.alias, a.canonical, a.reason) for a in aliases] == [("1", "2", "acronym")]


def test_intent_merge_points_at_the_final_canonical() -> None:
    intents = [
        IntentView("a", "cook pasta for dinner", 1, 3.0),
        IntentView("b", "prepare a pasta dinner", 3, 2.0),
        IntentView("c", "cook pasta dinner", 1, 1.0),
        IntentView("d", "book a flight to Paris", 1, 0.0),
    ]
    vectors = unit_rows([[1.0, 0.1, 0.0], [1.0, 0.0, 0.0], [1.0, 0.05, 0.0], [0.0, 0.0, 1.0]], dimensions=3)
    merges = plan_intent_merges(intents, vectors)
    assert sorted((m.merged, m.canonical) for m in merges) == [("a", "b"), ("c", "b")]
    assert plan_intent_merges([intents[1], intents[3]], np.asarray(vectors[[1, 3]])) == []


def test_narrower_or_prefixed_keys_are_not_spelling_variants() -> None:
    for a, b in [
        ("mental health job", "mental health"),
        ("lgbtq activist", "new lgbtq activist"),
        ("cross", "across"),
        ("safe place", "safe space"),
        ("mental health job", "mental health work"),
        ("feel", "feeling"),  # inflections are not aliases
        ("fam camping", "family camping"),
    ]:
        assert alias_reason(a, b, 0.85, RULES) is None, (a, b)
    for a, b in [("road trip", "roadtrip"), ("colour scheme", "color scheme"), ("women sitting", "woman sitting")]:
        assert alias_reason(a, b, 0.75, RULES) == "variant", (a, b)
