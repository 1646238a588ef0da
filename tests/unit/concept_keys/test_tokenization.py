"""Key tokenisation: what is accepted, and immunity to the padding Outlines switches on."""

from __future__ import annotations

from typing import Any

import outlines
import pytest

from engram.concept_keys.tokenization import NEW_KEY_MARKER, InvalidKey, KeyTokenizer


def test_keys_round_trip_through_their_tokens(key_tokenizer: KeyTokenizer) -> None:
    keys = ["person/alice", "Ünïcödé 🙂", " leading space", "a"]
    accepted, tokens, rejected = key_tokenizer.encode_keys(keys)
    assert accepted == keys and not rejected
    assert key_tokenizer.decode_many(tokens) == keys


def test_empty_and_reserved_keys_are_refused(key_tokenizer: KeyTokenizer) -> None:
    with pytest.raises(InvalidKey):
        key_tokenizer.encode_key("")
    with pytest.raises(InvalidKey):
        key_tokenizer.encode_key(NEW_KEY_MARKER + "anything")


def test_padding_on_the_shared_tokenizer_does_not_reach_key_tokens(tiny_lm: tuple[Any, Any]) -> None:
    keys = KeyTokenizer(tiny_lm[1])
    before = keys.encode_key("alice")
    outlines.from_transformers(*tiny_lm).tokenizer.encode(["a", "a much longer prompt"])  # pads the batch
    assert keys.encode_key("alice") == before


def test_the_identity_names_the_vocabulary(tiny_lm: tuple[Any, Any], key_tokenizer: KeyTokenizer) -> None:
    assert KeyTokenizer(tiny_lm[1]).identity == key_tokenizer.identity
    assert str(key_tokenizer.vocab_size) in key_tokenizer.identity
