"""Atomic facts from a sentence's parse (engram/facts/clauses.py), with spaCy's real en_core_web_sm."""

from __future__ import annotations

import pytest

from engram.facts.clauses import clauses
from engram.parsing import Parser

PARSER = Parser()


def facts(sentence: str) -> list[tuple[str, str, str, tuple[str, ...], str]]:
    return [
        (c.text, c.predicate, c.value, tuple(c.ends), "event" if c.event else "state")
        for c in clauses(PARSER.parse(sentence))
    ]


def test_a_compound_sentence_gives_one_grammatical_fact_per_clause() -> None:
    assert facts("I live in Porto and work at a bakery near the station.") == [
        ("I live in Porto.", "live in", "Porto", (), "state"),
        ("I work at a bakery near the station.", "work at", "bakery near the station", (), "state"),
    ]


def test_a_filler_goes_and_a_move_names_the_old_value() -> None:
    told = facts("Big news: I moved from Porto to Graz last month, and I started at a shipping firm there.")
    assert told[0][0] == "I moved from Porto to Graz last month."
    assert told[0][2:] == ("Graz", ("Porto",), "state")
    assert told[1][0] == "I started at a shipping firm there."


def test_a_sentence_without_a_subject_belongs_to_its_teller_and_the_purchase_replaces_the_sale() -> None:
    assert facts("Sold the old bike and bought a scooter.") == [
        ("I sold the old bike.", "sell", "", ("old bike",), "event"),
        ("I bought a scooter.", "buy", "scooter", ("old bike",), "state"),
    ]


@pytest.mark.parametrize(
    ("sentence", "value", "ends"),
    [
        ("I traded in a Volvo estate for a Kia Niro.", "Kia Niro", ("Volvo estate",)),
        ("I replaced my Fairphone 4 with a Pixel 7.", "Pixel 7", ("Fairphone 4",)),
        ("Maribel's manager changed from Ottoline Vance to Rudolf Mbeki.", "Rudolf Mbeki", ("Ottoline Vance",)),
        ("I broke up with Anselm; I am seeing Tomasz now.", "Tomasz", ("Anselm",)),
        ("Ottoline Vance left, so Rudolf Mbeki is my boss now.", "Rudolf Mbeki", ("Ottoline Vance",)),
    ],
)
def test_source_roles_end_the_old_value(sentence: str, value: str, ends: tuple[str, ...]) -> None:
    last = facts(sentence)[-1]
    assert (last[2], last[3], last[4]) == (value, ends, "state")


def test_an_addition_and_an_event_end_nothing() -> None:
    (cat,) = clauses(PARSER.parse("We also got a cat."))
    assert cat.adds and not cat.ends
    (concert,) = facts("I went to a concert by Kobalt Echo.")
    assert concert[3:] == ((), "event")


def test_a_possessed_attribute_is_the_slot_noun_and_its_owner_the_subject() -> None:
    (fact,) = clauses(PARSER.parse("My job title is data engineer."))
    assert (fact.owner, fact.slot_noun, fact.value, fact.frame) == ("My", "job title", "data engineer", "job title")
    assert fact.first_person


def test_unreadable_text_gives_no_fact() -> None:
    assert clauses(PARSER.parse("¿¿ ### ---")) == []
    assert clauses(PARSER.parse("")) == []
