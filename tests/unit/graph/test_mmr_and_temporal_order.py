"""Maximal marginal relevance over the head of a ranking (graph/recall/logic/mmr.py) and its temporal reordering
(graph/recall/logic/temporal_order.py)."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from graph.recall.logic.mmr import Placement, closest_above, mmr_order
from graph.recall.logic.temporal_order import latest_version_first, newer_restatements_first
from graph.recall.query import asks_for_state


def _vectors(*rows: list[float]) -> np.ndarray:
    return np.array(rows, dtype=np.float32)


def test_a_near_duplicate_gives_way_to_the_next_distinct_item() -> None:
    scores = np.array([1.0, 0.95, 0.9])
    # The second item says what the first says; the third is about something else.
    vectors = _vectors([1.0, 0.0], [0.99, 0.14], [0.0, 1.0])
    order = mmr_order(scores, vectors, trade_off=0.25)
    assert [p.index for p in order] == [0, 2, 1]
    assert order[0].redundancy == 0.0 and order[0].closest is None
    assert order[1].closest is None and order[1].redundancy == 0.0  # orthogonal: redundant with nothing
    assert order[2].closest == 0 and order[2].redundancy == pytest.approx(0.99, abs=0.01)


def test_a_clearly_better_item_keeps_its_place_despite_redundancy() -> None:
    scores = np.array([1.0, 0.9, 0.3])
    vectors = _vectors([1.0, 0.0], [0.9, 0.44], [0.0, 1.0])
    assert [p.index for p in mmr_order(scores, vectors, trade_off=0.25)] == [0, 1, 2]


def test_no_trade_off_keeps_the_order_and_ties_keep_the_input_order() -> None:
    scores = np.array([0.5, 0.5, 0.5, 0.2])
    vectors = _vectors([1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0])
    assert [p.index for p in mmr_order(scores, vectors, trade_off=0.0)] == [0, 1, 2, 3]


def test_a_missing_vector_is_redundant_with_nothing() -> None:
    scores = np.array([1.0, 0.9, 0.85])
    vectors = _vectors([1.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    order = mmr_order(scores, vectors, trade_off=0.25)
    assert [p.index for p in order] == [0, 2, 1]
    assert order[1].redundancy == 0.0


def test_vectors_need_not_be_unit_length() -> None:
    scores = np.array([1.0, 0.95, 0.9])
    scaled = _vectors([3.0, 0.0], [0.5, 0.07], [0.0, 7.0])
    unit = _vectors([1.0, 0.0], [0.99, 0.14], [0.0, 1.0])
    assert [p.index for p in mmr_order(scores, scaled, 0.25)] == [p.index for p in mmr_order(scores, unit, 0.25)]


def test_an_empty_head_and_a_bad_trade_off() -> None:
    assert mmr_order(np.array([]), np.zeros((0, 4), dtype=np.float32), 0.25) == []
    with pytest.raises(ValueError, match="trade_off"):
        mmr_order(np.array([1.0]), _vectors([1.0]), 1.0)


def test_a_recall_tuning_with_a_bad_trade_off_is_refused_when_configured() -> None:
    from graph.recall.config import RecallConfig

    with pytest.raises(ValueError, match="diversity"):
        RecallConfig(diversity=1.0)
    with pytest.raises(ValueError, match="diversity"):
        RecallConfig(diversity=-0.1)
    assert RecallConfig(diversity=0.0).order.diversity == 0.0


MAY, JUNE, JULY = datetime(2023, 5, 1), datetime(2023, 6, 1), datetime(2023, 7, 1)
USER = frozenset({"User"})


def _placed(*rows: tuple[int, float, int | None]) -> list[Placement]:
    return [Placement(index, redundancy, closest) for index, redundancy, closest in rows]


def test_a_later_restatement_by_the_same_speaker_goes_above_what_it_updates() -> None:
    # 0: "I have completed 4 projects" (May); 1: something else; 2: "I just finished my 5th project" (June).
    placements = _placed((0, 0.0, None), (1, 0.3, 0), (2, 0.8, 0))
    scores = np.array([0.74, 0.7, 0.68])
    order = newer_restatements_first(placements, scores, [MAY, MAY, JUNE], [USER, USER, USER], 0.75, 0.85)
    assert [p.index for p in order] == [2, 0, 1]


def test_only_a_close_restatement_by_the_same_speaker_said_later_moves() -> None:
    placements = _placed((0, 0.0, None), (1, 0.8, 0))
    close, weak = np.array([0.7, 0.65]), np.array([0.7, 0.5])

    def order(*args: object) -> list[int]:
        return [p.index for p in newer_restatements_first(placements, *args)]  # type: ignore[arg-type]

    assert order(close, [MAY, JUNE], [USER, USER], 0.75, 0.85) == [1, 0]
    assert order(close, [JUNE, MAY], [USER, USER], 0.75, 0.85) == [0, 1]  # said earlier
    assert order(close, [MAY, JUNE], [USER, USER], 0.85, 0.85) == [0, 1]  # not close enough to be a restatement
    assert order(close, [MAY, JUNE], [USER, frozenset({"Assistant"})], 0.75, 0.85) == [0, 1]  # someone else
    assert order(weak, [MAY, JUNE], [USER, USER], 0.75, 0.85) == [0, 1]  # far less relevant
    assert order(close, [None, None], [USER, USER], 0.75, 0.85) == [0, 1]  # a document's passages


def test_a_question_about_a_state_is_told_from_one_about_a_past_talk() -> None:
    for query in (
        "What type of camera lens did I purchase most recently?",
        "How many Instagram followers do I currently have?",
        "What was my previous frequent flyer status before I got the current status?",
        "What day did I meet my previous language exchange tutor Juan?",
    ):
        assert asks_for_state(query), query
    for query in (
        "Can you remind me of the Mayo Clinic video from our previous conversation?",
        "What did Melanie paint recently?",
        "How many of Emma's recipes have I tried out?",
    ):
        assert not asks_for_state(query), query


def test_the_latest_item_about_what_the_first_is_about_goes_first() -> None:
    # 0: "I recently got a new 50mm lens" (May); 1: a tripod (June); 2: "great shots with my new 70-200mm lens"
    # (June, close to 0); 3: a lens someone else mentioned later still.
    placements = _placed((0, 0.0, None), (1, 0.2, 0), (2, 0.7, 0), (3, 0.6, 0))
    vectors = _vectors([1.0, 0.0], [0.1, 1.0], [0.8, 0.6], [0.9, 0.44])
    times = [MAY, JUNE, JUNE, JULY]
    speakers = [USER, USER, USER, frozenset({"Assistant"})]

    def first(scores: list[float], when: list[datetime | None] = times, threshold: float = 0.55) -> int:
        order = latest_version_first(placements, np.array(scores), vectors, when, speakers, threshold, 0.4)
        assert sorted(p.index for p in order) == [0, 1, 2, 3]  # nothing lost
        return order[0].index

    assert first([0.64, 0.55, 0.43, 0.42]) == 2
    assert first([0.64, 0.55, 0.2, 0.42]) == 0  # far weaker: not a version of the same thing
    assert first([0.64, 0.55, 0.43, 0.42], threshold=0.9) == 0  # not about the same thing
    assert first([0.64, 0.55, 0.43, 0.42], [JUNE, JUNE, MAY, JULY]) == 0  # said earlier
    assert first([0.64, 0.55, 0.43, 0.42], [None, JUNE, JUNE, JULY]) == 0  # the first has no time


def test_closest_above_is_the_redundancy_mmr_records_for_its_final_order() -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(12, 8)).astype(np.float32)
    scores = np.linspace(1.0, 0.5, 12)
    placements = mmr_order(scores, vectors, 0.4)
    in_order = vectors[[p.index for p in placements]]
    again = closest_above(in_order)
    assert [round(p.redundancy, 5) for p in again] == [round(p.redundancy, 5) for p in placements]
    # The closest item, as an index into the final order, is the one MMR named.
    position = {p.index: rank for rank, p in enumerate(placements)}
    assert [p.closest for p in again] == [None if p.closest is None else position[p.closest] for p in placements]
