"""The value function's parts: the cosine behind a vector score, how much a dense vote counts, the fusion, the focus
factor."""

from __future__ import annotations

import pytest

from graph.recall.config import RecallConfig
from graph.recall.value import cosine, distinctive_strength, focus, match_strength, rrf

WEIGHTS, K = RecallConfig().seed.list_weights, RecallConfig().seed.rrf_k


def test_cosine_undoes_neo4js_rescaling_and_clips_at_zero() -> None:
    assert cosine(0.915) == pytest.approx(0.83)  # (1 + 0.83) / 2, as the vector index reports it
    assert cosine(0.5) == 0.0 and cosine(0.3) == 0.0 and cosine(None) == 0.0


def test_a_dense_vote_counts_by_how_well_it_matches() -> None:
    floor, full = 0.10, 0.25
    assert match_strength((1 + 0.05) / 2, floor, full) == 0.0  # unrelated text: no evidence
    assert match_strength((1 + 0.175) / 2, floor, full) == pytest.approx(0.5)
    assert match_strength((1 + 0.60) / 2, floor, full) == 1.0


def test_fusion_scales_each_lists_vote_by_its_strength() -> None:
    ranks = {"dense": 1, "fulltext": 3}
    full = rrf(ranks, WEIGHTS, K)
    assert rrf(ranks, WEIGHTS, K, {"dense": 1.0, "fulltext": 1.0}) == pytest.approx(full)
    # A weak dense hit keeps only its lexical vote (full-text counts double).
    assert rrf(ranks, WEIGHTS, K, {"dense": 0.0}) == pytest.approx(2.0 / (20 + 3))


def test_statements_of_a_long_utterance_count_less_than_those_of_a_short_one() -> None:
    # A turn yields a handful of statements: up to `after` nothing is discounted (LoCoMo turns: 99% yield <= 5).
    assert focus(1, 0.15, 5) == focus(5, 0.15, 5) == 1.0
    assert focus(0, 0.15, 5) == 1.0  # an utterance no knowledge was drawn from
    # Beyond it, (statements / after)^-exponent: an assistant's 20-statement answer counts (20 / 5)^-0.15.
    assert focus(20, 0.15, 5) == pytest.approx(4**-0.15)
    assert focus(10, 0.15, 5) > focus(20, 0.15, 5)
    assert focus(20, 0.0, 5) == 1.0  # exponent 0: off


def test_a_full_text_vote_keeps_its_floor_and_grows_with_the_distinctive_words_held() -> None:
    assert distinctive_strength(1.0, 1.0, 0.5) == 1.0  # holds as much as the best hit: a full vote
    assert distinctive_strength(0.0, 1.0, 0.5) == 0.5  # only the common words: half a vote, never none
    assert distinctive_strength(0.5, 1.0, 0.5) == 0.75
    assert distinctive_strength(0.25, 0.5, 0.0) == 0.5
    assert distinctive_strength(0.0, 0.0, 0.5) == 1.0  # exponent 0: off, every hit a full vote
