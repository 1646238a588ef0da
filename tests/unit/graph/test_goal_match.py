from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from graph.recall.config import RecallConfig
from graph.recall.goal_match import coverage, fit_goals, goal_distance

SUBSTITUTION, STRENGTH = RecallConfig().scoring.goal_substitution, RecallConfig().scoring.goal_strength


@dataclass
class Item:
    id: str
    score: float
    components: dict[str, float] = field(default_factory=dict)


def test_a_word_standing_in_for_another_costs_less_than_a_word_more() -> None:
    query = "put a mug in shelf."
    same_kind = goal_distance(query, "put a cup in shelf", SUBSTITUTION)  # the object changed
    other_place = goal_distance(query, "put some mug on drawer", SUBSTITUTION)  # the place changed
    two = goal_distance(query, "put two mug in shelf", SUBSTITUTION)  # a word more: another kind of task
    cool = goal_distance(query, "cool some mug and put it in shelf", SUBSTITUTION)
    assert goal_distance(query, "put a mug in shelf", SUBSTITUTION) == 0
    assert same_kind == other_place == 0.5
    assert two == cool == 1.0
    assert (
        goal_distance(query, "heat some mug and put it in microwave", SUBSTITUTION) > two
    )  # a word more and one changed


def test_coverage_is_the_share_of_the_querys_words_in_the_goal() -> None:
    assert coverage("put a mug in shelf", "put two mug in shelf") == 1.0
    assert coverage("Move a phone to the shelf of an end table.", "put a cellphone in shelf") == pytest.approx(1 / 5)
    assert coverage("the a of", "put a mug in shelf") == 0.0


def test_the_closest_goal_keeps_its_score_and_farther_ones_drop() -> None:
    items = [Item("two", 0.62), Item("drawer", 0.58), Item("fact", 0.50)]
    goals = {"two": "put two cellphone in shelf", "drawer": "put a cellphone in drawer"}
    fit_goals(items, goals, "put a cellphone in shelf.", SUBSTITUTION, STRENGTH)
    by_id = {item.id: item for item in items}
    assert by_id["drawer"].score == 0.58 and by_id["drawer"].components["goal_fit"] == 1.0
    assert by_id["two"].score < 0.58  # now behind the procedure for the task asked
    assert by_id["fact"].score == 0.50 and "goal_fit" not in by_id["fact"].components  # no goal: untouched


def test_a_paraphrase_barely_moves_the_order() -> None:
    """Few of its words are in any goal: a word more or less says little about the kind of task."""
    items = [Item("two", 0.62), Item("drawer", 0.58)]
    goals = {"two": "put two cellphone in shelf", "drawer": "put a cellphone in drawer"}
    fit_goals(items, goals, "Move a phone to the shelf of an end table.", SUBSTITUTION, STRENGTH)
    assert items[0].score > items[1].score > 0.58 * 0.95
