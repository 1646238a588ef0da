"""Supersession planned from facts (graph/consolidation/fact_changes.py): pure planning over rows, no database."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.consolidation.fact_changes import FactRow, names_value, plan_fact_changes


def fact(
    id_: str, day: int, value: str = "", slot: str = "", ends: tuple[str, ...] = (), event: bool = False,
    adds: bool = False, subject: str = "lena", renews: bool = False,
) -> FactRow:  # fmt: skip
    return FactRow(id_, subject, slot, value, ends, adds, renews, event, True, datetime(2024, 1, day, tzinfo=UTC))


def pairs(facts: list[FactRow]) -> list[tuple[str, str]]:
    return [(p.survivor, p.replaced) for p in plan_fact_changes(facts).supersessions]


def test_a_change_naming_the_old_value_ends_it_and_takes_its_slot() -> None:
    facts = [fact("porto", 1, "Porto", "home"), fact("graz", 5, "Graz", "move to a place", ends=("Porto",))]
    changes = plan_fact_changes(facts)
    assert pairs(facts) == [("graz", "porto")]
    assert changes.slots == {"graz": "home"}


def test_a_change_told_before_the_state_it_ends_still_ends_it() -> None:
    facts = [fact("sold", 1, ends=("Volvo estate",), event=True), fact("volvo", 9, "my Volvo estate", "car")]
    assert pairs(facts) == [("sold", "volvo")]


def test_same_slot_new_value_later_supersedes_and_chains() -> None:
    facts = [
        fact("a", 1, "Halcyon", "employer"),
        fact("b", 3, "Brindle", "employer"),
        fact("c", 7, "Corvid", "employer"),
    ]
    assert pairs(facts) == [("b", "a"), ("c", "b")]


def test_events_additions_other_subjects_and_the_same_value_change_nothing() -> None:
    facts = [
        fact("dog", 1, "dog", "pet"),
        fact("cat", 4, "cat", "pet", adds=True),
        fact("concert", 5, "concert", "go to concert", event=True),
        fact("concert2", 6, "recital", "go to concert", event=True),
        fact("again", 8, "the dog", "pet"),
        fact("theirs", 9, "parrot", "pet", subject="bo"),
    ]
    assert pairs(facts) == []


def test_value_names_match_by_their_words() -> None:
    assert names_value("PulseFit membership", "PulseFit")
    assert names_value("nurse", "nurse practitioner")
    assert names_value("Porto", "Porto Alegre")  # one holds the other's words
    assert not names_value("Lisbon", "Tallinn")
    assert not names_value("", "Tallinn")


def test_an_open_slot_changes_only_when_the_later_value_is_told_as_new() -> None:
    seeing = [fact("doctor", 1, "Dr. Okonkwo", "see :thing"), fact("partner", 5, "Tomasz", "see :thing")]
    assert pairs(seeing) == []
    renting = [
        fact("abernathy", 1, "Mrs. Abernathy", "rent from :thing"),
        fact("harlow", 5, "Harlow Lettings", "rent from :thing", renews=True),
    ]
    assert pairs(renting) == [("harlow", "abernathy")]


def test_a_new_count_of_the_same_thing_is_a_change_in_any_slot() -> None:
    cats = [fact("two", 1, "two cats", "have :thing"), fact("three", 5, "three cats", "have :thing")]
    assert pairs(cats) == [("three", "two")]
    other = [fact("cats", 1, "two cats", "have :thing"), fact("dogs", 5, "three dogs", "have :thing")]
    assert pairs(other) == []


def test_a_running_count_told_by_another_verb_is_a_change_but_two_counted_events_are_two() -> None:
    projects = [
        fact("four", 1, "4 painting projects", "complete :thing"),
        fact("fifth", 5, "my 5th painting project", "finish :thing", event=True),
    ]
    assert pairs(projects) == [("fifth", "four")]
    runs = [fact("r5", 1, "5 km", "run :thing", event=True), fact("r10", 5, "10 km", "run :thing", event=True)]
    assert pairs(runs) == []
