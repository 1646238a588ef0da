"""A fact's frame: the short text its attribute is named by, read for its meaning when slots are named at ingest
(engram/facts/slots.py).

An attribute noun names it when the statement has one ("My manager is X" -> "manager"); else the predicate with the
kind of value it takes ("live in" + a place -> "live in :place", "drive" + "a Volvo estate" -> "drive :thing"): the
same predicate with another kind of value is another attribute ("work at :someone", "work as :thing")."""

from __future__ import annotations

# The kind of value of each value type.
KINDS = {
    # A person and an organisation are one kind: a name's entity label confuses them ("rents from Mrs. Abernathy",
    # "rents from Harlow Lettings"), and the verb and preposition tell the attributes apart.
    "GPE": "place", "PERSON": "someone", "ORG": "someone", "NORP": "thing", "DATE": "time", "QUANTITY": "amount",
    "LANGUAGE": "thing", "THING": "thing",
}  # fmt: skip


def frame_of(predicate: str, value_type: str, attribute_noun: str = "") -> str:
    """The frame of a fact: its attribute noun, else its predicate with its value's kind."""
    if attribute_noun:
        return attribute_noun
    if not predicate:
        return ""
    return f"{predicate} :{KINDS.get(value_type, 'thing')}"
