"""A fact's frame: the short text its attribute is named by, read for its meaning (embedded) when slots are named at
ingest (engram/facts/slots.py) and when a question is matched to the facts it asks about (graph/recall/facts.py).

An attribute noun names it when the statement has one ("My manager is X" -> "manager"); else the predicate with the
kind of value it takes ("live in" + a place -> "live in a place", "drive" + "Volvo estate" -> "drive an estate"):
the same predicate with another kind of value is another attribute ("work at a company", "work as an engineer")."""

from __future__ import annotations

# How a frame says a value's type: an entity label as a kind, a thing by its head noun.
TYPE_WORDS = {
    "GPE": "a place", "PERSON": "someone", "ORG": "a company", "NORP": "a group", "DATE": "a time",
    "QUANTITY": "an amount", "LANGUAGE": "a language",
}  # fmt: skip


def frame_of(predicate: str, value_head: str, value_type: str, attribute_noun: str = "") -> str:
    """The frame of a fact: its attribute noun, else its predicate with its value's kind."""
    if attribute_noun:
        return attribute_noun
    if not predicate:
        return ""
    kind = TYPE_WORDS.get(value_type, value_head)
    return f"{predicate} {kind}".strip()
