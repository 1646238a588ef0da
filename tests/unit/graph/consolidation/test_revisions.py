"""Revisions (graph/consolidation/revisions.py): a later statement about the same subject's same attribute supersedes
the earlier one; with the real embedding model, no services."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from numpy.typing import NDArray

from engram.embedding import get_embedder
from graph.consolidation.duplicates import Supersession
from graph.consolidation.model import PropositionView, unit_rows
from graph.consolidation.revisions import RevisionRules, plan_revisions, statements


def _day(month: int, day: int) -> datetime:
    return datetime(2024, month, day, tzinfo=UTC)


def _plan(
    said: list[tuple[str, str, str, datetime, list[str]]], rules: RevisionRules | None = None
) -> list[Supersession]:
    """(id, speaker, text, valid_from, concept keys) -> the revisions planned, with real embeddings."""
    encode = get_embedder().encode
    keys = sorted({k for *_, ks in said for k in ks})
    concept_vectors: dict[str, NDArray[np.float32]] = dict(zip(keys, unit_rows(encode(keys).tolist()), strict=True))
    views = [
        PropositionView(id=i, text=text, subject="", valid_from=at, concept_ids=frozenset(ks))
        for i, _, text, at, ks in said
    ]
    vectors = unit_rows(encode([v.text for v in views]).tolist())
    items = statements(views, {i: [speaker] for i, speaker, *_ in said}, {k: k for k in keys})
    return plan_revisions(items, vectors, concept_vectors, rules)


MOVES = [
    ("lisbon", "Tom", "Tom moved to Lisbon.", _day(2, 19), ["tom", "lisbon"]),
    ("madrid", "Tom", "Tom moved from Lisbon to Madrid.", _day(5, 1), ["tom", "lisbon", "madrid"]),
]


def test_a_later_move_supersedes_the_earlier_without_handing_it_its_proofs() -> None:
    [plan] = _plan(MOVES)
    assert (plan.survivor, plan.replaced, plan.reason) == ("madrid", "lisbon", "updated")
    assert plan.row()["carry"] is False and plan.row()["ends_validity"] is True


def test_the_order_is_the_worlds_time_not_the_order_given() -> None:
    [plan] = _plan(list(reversed(MOVES)))
    assert (plan.survivor, plan.replaced) == ("madrid", "lisbon")


def test_a_chain_is_superseded_step_by_step() -> None:
    berlin = ("berlin", "Tom", "Tom moved from Madrid to Berlin.", _day(9, 1), ["tom", "madrid", "berlin"])
    plans = {(p.replaced, p.survivor) for p in _plan([*MOVES, berlin])}
    assert plans == {("lisbon", "madrid"), ("madrid", "berlin")}


@pytest.mark.parametrize(
    "other",
    [
        ("priya", "Priya", "Priya moved to Madrid.", _day(5, 1), ["priya", "madrid"]),  # another subject
        ("same-day", "Tom", "Tom moved to Madrid.", _day(2, 19), ["tom", "madrid"]),  # no later time
        ("question", "Tom", "Did Tom move to Madrid?", _day(5, 1), ["tom", "madrid"]),  # claims nothing
        ("unrelated", "Tom", "Tom adopted a beagle puppy.", _day(5, 1), ["tom", "beagle puppy"]),  # another attribute
    ],
    ids=["other subject", "same time", "question", "other attribute"],
)
def test_no_revision_without_the_same_subject_a_later_time_and_a_close_attribute(
    other: tuple[str, str, str, datetime, list[str]],
) -> None:
    assert _plan([MOVES[0], other]) == []


def test_quantities_revise_a_count() -> None:
    said = [
        ("four", "User", "User has completed 4 painting projects.", _day(3, 1), ["painting project"]),
        ("five", "User", "User has completed 5 painting projects.", _day(6, 1), ["painting project"]),
    ]
    [plan] = _plan(said)
    assert (plan.survivor, plan.replaced) == ("five", "four")


def test_off_plans_nothing() -> None:
    assert _plan(MOVES, RevisionRules(enabled=False)) == []
