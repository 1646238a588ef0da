"""A fact's frame: the short text its attribute is named by, read for its meaning when slots are named at ingest
(engram/facts/slots.py).

An attribute noun names it when the statement has one ("My manager is X" -> "manager"); else the predicate with the
kind of value it takes ("live in" -> "live in :thing", "started on" + a date -> "start on :time"): the verb and its
preposition tell attributes apart ("work at :thing", "work as :thing"); of the value, only a time or an amount is
another kind. A name's entity label is no guide: it confuses people, organisations and places ("rents from Mrs.
Abernathy" / "from Harlow Lettings"), and a common noun names any of them ("works at a bakery", "lives in a flat")."""

from __future__ import annotations

# The kind of value of each value type; every other value is a thing.
KINDS = {"DATE": "time", "QUANTITY": "amount"}


def frame_of(predicate: str, value_type: str, attribute_noun: str = "") -> str:
    """The frame of a fact: its attribute noun, else its predicate with its value's kind."""
    if attribute_noun:
        return attribute_noun
    if not predicate:
        return ""
    return f"{predicate} :{KINDS.get(value_type, 'thing')}"
