"""Pure parts of recall: which concepts an expansion reads, how long space sizes are trusted, hit order."""

from __future__ import annotations

import pytest

from graph.recall.config import RecallConfig
from graph.recall.logic.abstract import concepts_to_expand
from graph.recall.search_statements import SpaceSizes, hits_of


def test_expansion_takes_the_most_activated_concepts_within_the_mention_budget() -> None:
    tuning = RecallConfig(expand_concepts=3, max_expand_df=500, expand_mentions=1000)
    activation = {"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6, "e": 0.5}
    df = {"a": 400, "b": 700, "c": 300, "d": 200, "e": 10}
    # b would overrun the budget (400 + 700) and is passed over; c and d still fit; the count cap stops at 3.
    assert concepts_to_expand(tuning, activation, df) == {"a": 0.9, "c": 0.7, "d": 0.6}


def test_a_later_hop_expands_within_the_budget_it_is_given() -> None:
    tuning = RecallConfig(expand_concepts=20, max_expand_df=500, expand_mentions=1000)
    activation, df = {"a": 0.9, "b": 0.8}, {"a": 400, "b": 200}
    assert concepts_to_expand(tuning, activation, df) == activation
    assert concepts_to_expand(tuning, activation, df, budget=300) == {"b": 0.8}


def test_expansion_skips_concepts_too_general_to_expand() -> None:
    tuning = RecallConfig(expand_concepts=20, max_expand_df=500, expand_mentions=100_000)
    chosen = concepts_to_expand(tuning, {"general": 1.0, "rare": 0.1}, {"general": 501, "rare": 3})
    assert chosen == {"rare": 0.1}


def test_expansion_breaks_activation_ties_by_id() -> None:
    tuning = RecallConfig(expand_concepts=1)
    assert concepts_to_expand(tuning, {"z": 0.5, "a": 0.5}, {}) == {"a": 0.5}


def test_space_sizes_are_counted_once_within_their_lifetime() -> None:
    counts: list[str] = []

    def count(space: str) -> dict[str, int]:
        counts.append(space)
        return {"propositions": len(counts)}

    sizes = SpaceSizes(ttl_s=60.0)
    assert sizes.get("s1", lambda: count("s1")) == {"propositions": 1}
    assert sizes.get("s1", lambda: count("s1")) == {"propositions": 1}
    assert sizes.get("s2", lambda: count("s2")) == {"propositions": 2}
    assert counts == ["s1", "s2"]


def test_space_sizes_without_a_lifetime_are_counted_every_time() -> None:
    calls: list[int] = []

    def count() -> dict[str, int]:
        calls.append(1)
        return {"propositions": 0}

    sizes = SpaceSizes(ttl_s=0.0)
    for _ in range(3):
        sizes.get("s", count)
    assert len(calls) == 3


def test_hits_are_ordered_best_first_with_ties_by_id() -> None:
    rows = [{"id": "b", "score": 0.5}, {"id": "c", "score": 0.9}, {"id": "a", "score": 0.5}]
    assert [h.id for h in hits_of(rows, "dense_propositions")] == ["c", "a", "b"]


def test_episode_hits_carry_their_knowledge_and_must_have_it() -> None:
    rows = [{"id": "e1", "score": 0.7, "propositions": ["p2", "p1"], "prescriptions": ["r2", "r1"], "knowledge": 3}]
    (hit,) = hits_of(rows, "exact_episodes")
    assert hit.proves == ("p1", "p2") and hit.ever_proved == 3  # sorted: the same answer whatever the store order
    assert hit.prescribes == ("r1", "r2")  # a trajectory step's prescriptions
    (intent,) = hits_of([{"id": "i1", "score": 0.8, "prescriptions": ["r3"]}], "exact_intents")
    assert intent.prescribes == ("r3",) and intent.proves == ()
    with pytest.raises(KeyError):  # an episode row without its knowledge is a broken statement, not chit-chat
        hits_of([{"id": "e1", "score": 0.7}], "dense_episodes")
