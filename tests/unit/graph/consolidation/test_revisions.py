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


def _plan_told(
    said: list[tuple[str, str, str, datetime, list[str]]], yields: dict[str, int], rules: RevisionRules | None = None
) -> list[Supersession]:
    """As `_plan`, with the statements each proving utterance yielded."""
    encode = get_embedder().encode
    keys = sorted({k for *_, ks in said for k in ks})
    concept_vectors: dict[str, NDArray[np.float32]] = dict(zip(keys, unit_rows(encode(keys).tolist()), strict=True))
    views = [
        PropositionView(id=i, text=text, subject="", valid_from=at, concept_ids=frozenset(ks))
        for i, _, text, at, ks in said
    ]
    vectors = unit_rows(encode([v.text for v in views]).tolist())
    items = statements(views, {i: [speaker] for i, speaker, *_ in said}, {k: k for k in keys}, yields)
    return plan_revisions(items, vectors, concept_vectors, rules)


PRIYA = ("hello", "Priya", "Priya said hello to Tom.", _day(1, 1), ["priya", "tom"])  # Priya is a speaker too


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (  # what the speaker says of someone else, the other speaker named: about their conversation
            ("help-1", "Tom", "Tom is happy to help Priya with the move to Lisbon.", _day(2, 19), ["lisbon"]),
            ("help-2", "Tom", "Tom is happy to help Priya with the move to Madrid.", _day(5, 1), ["madrid"]),
        ),
        (  # a report of a sentence that names no one (the extractor's "X said: ...")
            ("said-1", "Tom", "Tom said: Lisbon is a lovely city to live in.", _day(2, 19), ["lisbon"]),
            ("said-2", "Tom", "Tom said: Madrid is a lovely city to live in.", _day(5, 1), ["madrid"]),
        ),
        (  # advice naming nobody: not what the teller says of themselves
            ("advice-1", "Tom", "Living in Lisbon is a lovely experience.", _day(2, 19), ["lisbon"]),
            ("advice-2", "Tom", "Living in Madrid is a lovely experience.", _day(5, 1), ["madrid"]),
        ),
    ],
    ids=["names the other speaker", "reported", "names no teller"],
)
def test_only_what_a_teller_says_of_themselves_is_revised(
    older: tuple[str, str, str, datetime, list[str]], newer: tuple[str, str, str, datetime, list[str]]
) -> None:
    assert _plan_told([PRIYA, older, newer], {}) == []
    assert _plan_told([PRIYA, *MOVES], {})  # the moves themselves are


def test_one_of_many_statements_of_a_long_utterance_is_not_a_report_of_ones_state() -> None:
    long_reply = {"madrid": 6}  # the Madrid statement is one of six its utterance yielded
    assert _plan_told(MOVES, long_reply) == []
    assert _plan_told(MOVES, long_reply, RevisionRules(max_statements=6))  # at the limit it is
    assert _plan_told(MOVES, long_reply, RevisionRules(max_statements=0))  # 0: any utterance


def test_two_statements_naming_nothing_in_common_are_no_revision() -> None:
    """Close in meaning (0.73), siblings (pottery / ceramics 0.66), yet no word in common besides the teller's name."""
    said = [
        ("pottery", "Melanie", "Melanie finds pottery relaxing.", _day(3, 1), ["pottery"]),
        ("ceramics", "Melanie", "Melanie thinks ceramics are calming.", _day(6, 1), ["ceramics"]),
    ]
    assert _plan(said) == []
    assert _plan(said, RevisionRules(shared_words=0))  # without the rule the pair is linked


def test_a_shared_image_is_an_event_of_its_own() -> None:
    said = [
        ("lisbon", "Mel", "Mel shared an image: a photo of a bride with a bouquet in Lisbon.", _day(3, 1), ["lisbon"]),
        ("madrid", "Mel", "Mel shared an image: a photo of a bride with a bouquet in Madrid.", _day(6, 1), ["madrid"]),
    ]
    assert _plan(said) == []
    unshared = [(i, who, text.replace("shared an image: a photo of", "saw"), at, ks) for i, who, text, at, ks in said]
    assert _plan(unshared)  # the same words as what Mel saw are linked
