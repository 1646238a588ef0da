"""The offline duplicate judge and the fixed-point planner."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from graph.consolidation.duplicates import (
    DuplicateDecision,
    DuplicateRules,
    OfflineJudge,
    candidate_pairs,
    plan_duplicates,
    survivor_of_merge,
    survivor_of_update,
)
from graph.consolidation.model import PropositionView, unit_rows


def view(
    pid: str, text: str, subject: str = "", day: int = 1, support: int = 1, concepts: str = "c"
) -> PropositionView:
    return PropositionView(
        id=pid,
        text=text,
        subject=subject,
        valid_from=datetime(2023, 5, day, tzinfo=UTC),
        support=support,
        concept_ids=frozenset(concepts.split(",")),
    )


JUDGE = OfflineJudge()


def test_restated_fact_merges() -> None:
    a = view("a", "Caroline said: Caroline loves painting sunsets.", "Caroline")
    b = view("b", "Caroline loves painting sunsets!", "Caroline")
    assert JUDGE.decide(a, b, 0.95) is DuplicateDecision.MERGE


def test_new_quantity_is_an_update() -> None:
    a = view("a", "Melanie has two kids.", "Melanie", day=1)
    b = view("b", "Melanie has three kids.", "Melanie", day=20)
    assert JUDGE.decide(a, b, 0.95) is DuplicateDecision.UPDATED
    assert survivor_of_update(a, b)[0] is b  # the newer value wins


def test_different_days_are_different_events() -> None:
    a = view("a", "Caroline went to a support group (7 May 2023).", "Caroline")
    b = view("b", "Caroline went to a support group (20 June 2023).", "Caroline")
    assert JUDGE.decide(a, b, 0.97) is DuplicateDecision.KEEP


def test_different_people_negation_questions_and_low_similarity_keep_both() -> None:
    a = view("a", "Caroline loves painting.", "Caroline")
    assert JUDGE.decide(a, view("b", "Melanie loves painting.", "Melanie"), 0.95) is DuplicateDecision.KEEP
    assert JUDGE.decide(a, view("b", "Caroline does not love painting.", "Caroline"), 0.95) is DuplicateDecision.KEEP
    assert JUDGE.decide(a, view("b", "Caroline asked: Do you love painting?", "Caroline"), 0.95) is (
        DuplicateDecision.KEEP
    )
    assert JUDGE.decide(a, view("b", "Caroline loves painting.", "Caroline"), 0.5) is DuplicateDecision.KEEP
    related = view("b", "Caroline loves painting landscapes with watercolours at night.", "Caroline")
    assert JUDGE.decide(a, related, 0.9) is DuplicateDecision.KEEP  # related, not the same fact


def test_only_statements_that_stand_on_their_own_merge() -> None:
    # Two photos with alike captions, shared in two sessions, are two events.
    a = view("a", "Nate shared an image: a photography of three turtles sitting on rocks.", "Nate")
    b = view("b", "Nate shared an image: a photo of three turtles sitting on a rock.", "Nate")
    assert JUDGE.decide(a, b, 0.97) is DuplicateDecision.KEEP
    # A remark about "that" means something else in every episode that makes it.
    a, b = view("a", "Wow, Joanna, that looks amazing!"), view("b", "Wow, that looks amazing, Joanna!")
    assert JUDGE.decide(a, b, 0.97) is DuplicateDecision.KEEP
    # Whose support: the same words about someone else's things are another fact.
    a = view("a", "Nate's support and encouragement mean a lot to Joanna.")
    b = view("b", "Joanna's support and encouragement mean a lot to Nate.")
    assert JUDGE.decide(a, b, 0.97) is DuplicateDecision.KEEP
    a, b = view("a", "Nate's support means a lot."), view("b", "Nate's support really means a lot.")
    assert JUDGE.decide(a, b, 0.97) is DuplicateDecision.MERGE


def test_merge_survivor_is_the_best_supported() -> None:
    a = view("a", "Caroline loves painting.", support=1)
    b = view("b", "Caroline loves painting!", support=3)
    assert survivor_of_merge(a, b) == (b, a)
    assert survivor_of_merge(b, a) == (b, a)


def test_candidates_must_share_a_concept() -> None:
    views = [view("a", "x", concepts="c1"), view("b", "x", concepts="c2"), view("c", "x", concepts="c1,c3")]
    vectors = unit_rows([[1.0, 0.0], [1.0, 0.0], [1.0, 0.01]], dimensions=2)
    pairs = candidate_pairs(views, vectors, 0.9, {0, 1, 2})
    assert [(i, j) for i, j, _ in pairs] == [(0, 2)]


def test_plan_reaches_a_fixed_point_and_replans_nothing() -> None:
    texts = ["Ann loves jazz music.", "Ann loves jazz music!", "Ann said: Ann loves jazz music."]
    views = [view(str(i), t, "Ann", support=i + 1, concepts=f"k{i},jazz") for i, t in enumerate(texts)]
    views.append(view("other", "Ann loves jazz music.", "Bob", concepts="jazz"))
    vectors = unit_rows([[1.0, 0.0, 0.0]] * 4 + [], dimensions=3)
    plans, judged = plan_duplicates(views, vectors, JUDGE, 0.88)
    assert judged >= 3
    replaced = {p.replaced for p in plans}
    assert replaced == {"0", "1"}  # "2", best supported after absorbing the others, stands for all three
    assert {v.id for v in views} - replaced == {"2", "other"}  # "other" is about another subject
    assert plans[-1].survivor == "2"
    assert views[2].concept_ids >= {"k0", "k1", "k2", "jazz"}  # the survivor absorbed the concepts
    # Planning again over what stays current finds nothing.
    rest = [v for v in views if v.id not in replaced]
    again, _ = plan_duplicates(rest, np.asarray(vectors[[2, 3]]), JUDGE, 0.88)
    assert again == []


def test_the_same_point_in_other_words_merges() -> None:
    a = view("a", "Melanie said: We roasted marshmallows and shared stories around the campfire.", "Melanie")
    b = view("b", "Melanie said: We roast marshmallows, tell stories around the campfire and enjoy it.", "Melanie")
    assert JUDGE.decide(a, b, 0.94) is DuplicateDecision.MERGE
    c = view("c", "Caroline is still looking into counseling and mental health jobs.", "Caroline")
    d = view("d", "Lately, Caroline has been looking into counseling and mental health as a career.", "Caroline")
    assert JUDGE.decide(c, d, 0.93) is DuplicateDecision.MERGE
    assert JUDGE.decide(c, d, 0.9) is DuplicateDecision.KEEP  # other words need to be closer in meaning


def test_jobs_switched_off_keep_both() -> None:
    exact_only = OfflineJudge(DuplicateRules(topic_cosine=float("inf"), updates=False))
    c = view("c", "Caroline is still looking into counseling and mental health jobs.", "Caroline")
    d = view("d", "Lately, Caroline has been looking into counseling and mental health as a career.", "Caroline")
    assert exact_only.decide(c, d, 0.99) is DuplicateDecision.KEEP  # no "other words" merges
    a = view("a", "Melanie has two kids.", "Melanie", day=1)
    b = view("b", "Melanie has three kids.", "Melanie", day=20)
    assert exact_only.decide(a, b, 0.95) is DuplicateDecision.KEEP  # no updates
    restated = view("r", "Caroline said: Caroline loves painting sunsets.", "Caroline")
    again = view("s", "Caroline loves painting sunsets!", "Caroline")
    assert exact_only.decide(restated, again, 0.95) is DuplicateDecision.MERGE  # restatements still merge
