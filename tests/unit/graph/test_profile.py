"""The profile's grouping (graph/profile.py): profile.cypher's fact rows become subjects and slots, each slot with the
fact that holds now and its earlier versions, newest first."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graph.profile import build_profile, read_profile


def _at(month: int, year: int = 2025) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def _fact(id: str, subject: str, slot: str, value: str, month: int, **extra: Any) -> dict[str, Any]:
    row = {
        "id": id, "text": f"{subject} {slot} {value}", "subject": subject, "slot": slot, "predicate": "live in",
        "value": value, "value_type": "GPE", "polarity": True, "status": "active", "valid_from": _at(month),
        "valid_to": None, "superseded_by": None, "recorded_at": _at(month), "reason": None,
        "provenance": [{"id": f"ep_{id}", "external_id": f"m-{id}", "source_id": "src_1", "speaker": subject,
                        "text": f"said {value}", "occurred_at": _at(month), "seq": 0}],
    }  # fmt: skip
    return row | extra


def _replaced(row: dict[str, Any], by: str, month: int, reason: str = "changed") -> dict[str, Any]:
    return row | {"status": "superseded", "superseded_by": by, "valid_to": _at(month), "reason": reason}


def test_a_slot_holds_its_current_fact_and_its_earlier_versions_newest_first() -> None:
    porto = _replaced(_fact("p1", "lena", "home", "Porto", 1), "p3", 5)
    lisbon = _replaced(_fact("p0", "lena", "home", "Lisbon", 1, valid_from=_at(1, 2024)), "p1", 1)
    graz = _fact("p3", "lena", "home", "Graz", 5)
    profile = build_profile("lena", [(lisbon, None), (graz, None), (porto, None)])
    (subject,) = profile.subjects
    (home,) = subject.slots
    assert (subject.subject, subject.facts, home.slot) == ("lena", 3, "home")
    assert home.current is not None and home.current.value == "Graz" and home.current.status == "active"
    assert [(f.value, f.valid_to, f.superseded_by, f.reason) for f in home.history] == [
        ("Porto", _at(5), "p3", "changed"),
        ("Lisbon", _at(1), "p1", "changed"),
    ]
    assert [(p.external_id, p.episode_id) for p in home.current.provenance] == [("m-p3", "ep_p3")]


def test_a_slot_whose_every_version_was_replaced_has_no_current_fact_and_keeps_its_history() -> None:
    car = _replaced(_fact("c1", "lena", "car", "a Volvo", 2), "e1", 6)
    profile = build_profile("lena", [(car, None), (_fact("h1", "lena", "home", "Graz", 1), None)])
    slots = profile.subjects[0].slots
    assert [(s.slot, s.current is not None) for s in slots] == [("home", True), ("car", False)]  # current first
    assert [f.value for f in slots[1].history] == ["a Volvo"]


def test_a_correction_without_a_slot_of_its_own_stands_for_the_slot_it_replaced() -> None:
    bakery = _replaced(_fact("w1", "lena", "employer", "a bakery", 1), "k1", 7, reason="correction")
    correction = {
        "id": "k1", "text": "lena works at a shipping firm.", "subject": "lena", "predicate": "work at", "value": "",
        "value_type": "", "polarity": True, "status": "active", "valid_from": _at(7), "valid_to": None,
        "superseded_by": None, "recorded_at": _at(7), "reason": None, "provenance": [],
    }  # fmt: skip
    (slot,) = build_profile("lena", [(bakery, correction)]).subjects[0].slots
    assert slot.current is not None and (slot.current.id, slot.current.text) == ("k1", "lena works at a shipping firm.")
    assert [f.id for f in slot.history] == ["w1"]


def test_a_plural_slot_keeps_every_current_value_the_newest_first() -> None:
    cat = _fact("a1", "lena", "pet", "a cat", 2)
    dog = _fact("a2", "lena", "pet", "a dog", 8)
    (slot,) = build_profile("lena", [(cat, None), (dog, None)]).subjects[0].slots
    assert slot.current is not None and slot.current.value == "a dog"
    assert [f.value for f in slot.also_current] == ["a cat"]


def test_the_user_comes_first_then_the_subject_with_the_most_facts() -> None:
    rows = [
        (_fact("s1", "Sara", "home", "Rome", 1), None),
        (_fact("s2", "Sara", "employer", "ACME", 1), None),
        (_fact("t1", "Tom", "home", "Oslo", 1), None),
        (_fact("l1", "Lena", "home", "Graz", 1), None),
    ]
    assert [s.subject for s in build_profile("lena", rows).subjects] == ["Lena", "Sara", "Tom"]
    # No subject named as the user (a speaker named otherwise): the one that tells the most facts first.
    assert [s.subject for s in build_profile("u-1729", rows).subjects] == ["Sara", "Lena", "Tom"]


def test_one_subject_spelt_two_ways_is_one_subject_under_its_commoner_spelling() -> None:
    rows = [(_fact("a", "lena", "home", "Graz", 1), None), (_fact("b", "Lena", "pet", "a cat", 1), None),
            (_fact("c", "lena", "employer", "ACME", 1), None)]  # fmt: skip
    (subject,) = build_profile("lena", rows).subjects
    assert (subject.subject, subject.facts, [s.slot for s in subject.slots]) == ("lena", 3, ["employer", "home", "pet"])


def test_read_profile_asks_one_fact_more_than_it_shows_and_says_it_was_cut() -> None:
    asked: dict[str, Any] = {}

    def run(statement: str, **params: Any) -> list[dict[str, Any]]:
        asked.update(params, statement=statement)
        return [{"fact": _fact(f"f{i}", "lena", f"slot{i}", "x", 1), "current_head": None} for i in range(3)]

    profile = read_profile(run, "lena", subject=" Lena ", limit=2)
    assert asked == {"statement": "profile/profile", "subject": "lena", "limit": 3}
    assert profile.truncated and sum(len(s.slots) for s in profile.subjects) == 2
    assert read_profile(run, "lena", limit=5).truncated is False
