"""The API's `fact` of a proposition (app/api/schema/nodes.py Fact.of): the properties the Cypher reads become the
fact, an open slot reads without its kind of value, and a proposition with no slot is no fact."""

from __future__ import annotations

import pytest

from app.api.schema.nodes import Fact, Proposition, attribute_of


@pytest.mark.parametrize(
    ("slot", "attribute"),
    [
        ("home", "home"),
        ("rent from :thing", "rent from"),
        ("start on :time", "start on"),
        ("weigh :amount", "weigh"),
        ("manager", "manager"),
        ("at 10:30", "at 10:30"),  # no kind: a colon inside stays
    ],
)
def test_an_open_slot_reads_without_its_kind_of_value(slot: str, attribute: str) -> None:
    assert attribute_of(slot) == attribute


def test_a_propositions_properties_become_its_fact() -> None:
    row = {
        "id": "prop_1", "text": "Lena moved from Porto to Graz.", "subject": "Lena", "slot": "home", "object": "Graz",
        "value_type": "GPE", "aspect": "state", "polarity": True, "ends": ["Porto"], "predicate": "move to",
    }  # fmt: skip
    assert Fact.of(row) == Fact(
        subject="Lena", attribute="home", value="Graz", value_type="GPE", aspect="state", polarity=True, ends=["Porto"]
    )
    assert Proposition.from_row({**row, "superseded_by": "prop_2"}).fact == Fact.of(row)
    assert Proposition.from_row({**row, "superseded_by": "prop_2"}).superseded_by == "prop_2"


def test_missing_properties_read_as_the_model_defaults() -> None:
    fact = Fact.of({"subject": "Lena", "slot": "rent from :thing"})
    assert fact == Fact(
        subject="Lena", attribute="rent from", value="", value_type=None, aspect=None, polarity=True, ends=[]
    )
    assert Fact.of({"slot": "pet", "polarity": False}).polarity is False  # type: ignore[union-attr]


@pytest.mark.parametrize("row", [None, {}, {"subject": "Lena", "slot": ""}, {"subject": "Lena", "slot": None}])
def test_a_proposition_without_a_slot_is_no_fact(row: dict[str, object] | None) -> None:
    assert Fact.of(row) is None
    assert Proposition.from_row({"id": "prop_1", "text": "It rained.", **(row or {})}).fact is None
