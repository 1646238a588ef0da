"""The feeling an utterance voices, by families of emotion words."""

from __future__ import annotations

from graph.recall.associate.feelings import FAMILIES, feelings


def test_a_feeling_is_its_family_whatever_the_word() -> None:
    found = feelings("The client just requested another revision; I'm so frustrated and stressed.")
    assert [(f.family, f.said) for f in found] == [("stress", ("frustrated", "stressed"))]
    assert "annoyed" in found[0].words  # the family's other words find what the user said when annoyed


def test_several_families_in_the_order_voiced() -> None:
    assert [f.family for f in feelings("Tired but proud after the race")] == ["tired", "joy"]


def test_no_feeling_no_family() -> None:
    assert feelings("I bought mushrooms at the market") == []


def test_a_word_belongs_to_one_family() -> None:
    seen = [word for words in FAMILIES.values() for word in words]
    assert len(seen) == len(set(seen))
