"""Category, then key within the category."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engram.keys.decoder import KeyDecoder
from engram.keys.hierarchy import HierarchicalSchema, split_key
from tests.support.hypothesis_checks import SUPPRESSED_CHECKS

PROMPT = "Name the memory key.\nKey:\n"
_PART = st.text(alphabet=st.characters(blacklist_characters="/", blacklist_categories=["Cs"]), min_size=1, max_size=6)


def test_a_key_splits_at_its_first_separator() -> None:
    assert split_key("person/alice/hobbies") == ("person", "alice/hobbies")
    assert split_key("flat") is None
    assert split_key("/alice") is None and split_key("person/") is None


@settings(max_examples=6, deadline=None, suppress_health_check=SUPPRESSED_CHECKS)
@given(pairs=st.lists(st.tuples(_PART, _PART), min_size=1, max_size=4, unique=True), k=st.integers(1, 3))
def test_named_keys_exist_and_are_distinct(decoder: KeyDecoder, pairs: list[tuple[str, str]], k: int) -> None:
    keys = [f"{c}/{r}" for c, r in pairs]
    schema = HierarchicalSchema(decoder.tokenizer, keys)
    named = [c.key for c in schema.name_keys(decoder, PROMPT, k)]
    # A reserved rest ("+new:...") is refused, so the schema may be empty; a non-empty one always yields a key.
    assert bool(named) == (len(schema) > 0)
    assert len(named) == len(set(named)) <= k
    assert set(named) <= set(keys)


def test_categories_follow_inserts_and_removals(decoder: KeyDecoder) -> None:
    schema = HierarchicalSchema(decoder.tokenizer, ["person/alice", "person/bob", "place/paris", "flat"])
    assert len(schema) == 3 and "flat" not in schema
    assert schema.remove("place/paris")
    assert set(schema.categories.keys()) == {"person"}
    assert {c.key for c in schema.name_keys(decoder, PROMPT, 5)} == {"person/alice", "person/bob"}
    assert schema.insert("topic/art")
    assert "topic/art" in schema
    assert {c.key for c in schema.name_keys(decoder, PROMPT, 5)} == {"person/alice", "person/bob", "topic/art"}
