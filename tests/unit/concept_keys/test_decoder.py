"""The guarantee, on a tiny random-weight model: whatever the schema, the model names only keys that exist.

Random weights make the model's preferences arbitrary, so any key can come out; the constraint alone decides
what may. Beam search with as many beams as keys must find every key (each valid prefix keeps a beam).
"""

from __future__ import annotations

from typing import Any

import outlines
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.concept_keys.decoder import KeyChoice, KeyDecoder
from engram.concept_keys.tokenization import NEW_KEY_MARKER
from engram.concept_keys.trie import KeyTrie
from tests.support.hypothesis_checks import SUPPRESSED_CHECKS
from tests.support.key_strategies import schemas

PROMPT = "Name the memory key.\nKey:\n"
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESSED_CHECKS)


@SETTINGS
@given(keys=schemas(), seed=st.integers(0, 2**16))
def test_every_sampled_key_is_in_the_schema(sampling_decoder: KeyDecoder, keys: list[str], seed: int) -> None:
    trie = KeyTrie(sampling_decoder.tokenizer, keys)
    torch.manual_seed(seed)
    choice = sampling_decoder.name_key(PROMPT, trie)
    if not len(trie):
        assert choice is None
    else:
        assert choice is not None and not choice.new and choice.key in set(keys)


@SETTINGS
@given(keys=schemas(max_size=6), k=st.integers(1, 5))
def test_beams_are_distinct_keys_of_the_schema(decoder: KeyDecoder, keys: list[str], k: int) -> None:
    trie = KeyTrie(decoder.tokenizer, keys)
    named = [c.key for c in decoder.name_keys(PROMPT, trie, k)]
    assert len(named) == len(set(named)) == min(k, len(trie))
    assert set(named) <= set(keys)


@settings(max_examples=8, deadline=None, suppress_health_check=SUPPRESSED_CHECKS)
@given(keys=schemas(max_size=5), added=schemas(max_size=3), removed=st.sets(st.integers(0, 9), max_size=3))
def test_inserts_and_removals_show_in_the_next_generation(
    decoder: KeyDecoder, keys: list[str], added: list[str], removed: set[int]
) -> None:
    trie = KeyTrie(decoder.tokenizer, keys)
    assert {c.key for c in decoder.name_keys(PROMPT, trie, len(trie))} == set(trie.keys())
    for key in added:
        trie.insert(key)
    for index in removed:
        if keys:
            trie.remove(keys[index % len(keys)])
    expected = set(trie.keys())
    assert {c.key for c in decoder.name_keys(PROMPT, trie, len(trie) + 2)} == expected


def test_an_empty_schema_names_nothing(decoder: KeyDecoder) -> None:
    trie = KeyTrie(decoder.tokenizer)
    assert decoder.name_key(PROMPT, trie) is None
    assert decoder.name_keys(PROMPT, trie, 3) == []


def test_a_single_key_is_always_the_answer(sampling_decoder: KeyDecoder) -> None:
    trie = KeyTrie(sampling_decoder.tokenizer, ["the only key"])
    for seed in range(5):
        torch.manual_seed(seed)
        assert sampling_decoder.name_key(PROMPT, trie) is not None
        assert sampling_decoder.name_key(PROMPT, trie).key == "the only key"  # type: ignore[union-attr]


def test_the_escape_is_the_only_way_to_a_new_key(sampling_decoder: KeyDecoder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each choice is read from what the model wrote: a schema key written as is (not new), or the text after
    the escape marker, stripped and without the marker (new). Nothing else comes out."""
    written = _record_generations(monkeypatch)
    empty = KeyTrie(sampling_decoder.tokenizer)
    torch.manual_seed(0)
    forced = sampling_decoder.name_key(PROMPT, empty, allow_new=True)
    [text] = written
    assert text.startswith(NEW_KEY_MARKER), text  # nothing exists: only the escape is open
    assert forced is not None and forced == KeyChoice(text[len(NEW_KEY_MARKER) :].strip(), new=True), (forced, text)
    assert forced.key and not forced.key.startswith(NEW_KEY_MARKER), forced
    schema = {"hiking", "painting", "paris"}
    trie = KeyTrie(sampling_decoder.tokenizer, sorted(schema))
    kinds = set()
    for seed in range(8):
        written.clear()
        torch.manual_seed(seed)
        choice = sampling_decoder.name_key(PROMPT, trie, allow_new=True)
        [text] = written
        assert choice is not None, (seed, text)
        if text.startswith(NEW_KEY_MARKER):
            proposed = text[len(NEW_KEY_MARKER) :].strip()
            assert proposed, f"seed {seed}: an empty new key {text!r} must not be returned"
            assert choice == KeyChoice(proposed, new=True), (seed, choice, text)
            assert not choice.key.startswith(NEW_KEY_MARKER), (seed, choice)
        else:
            assert text in schema, f"seed {seed}: the model wrote {text!r} outside the schema without the escape"
            assert choice == KeyChoice(text, new=False), (seed, choice, text)
        kinds.add(choice.new)
    assert kinds == {True, False}  # both roads are open under sampling


def _record_generations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the model writes through `outlines.Generator` from now on (the decoder's raw output)."""
    written: list[str] = []
    real = outlines.Generator

    def recording(*args: Any, **kwargs: Any) -> Any:
        generator = real(*args, **kwargs)

        def generate(prompt: str, **generation_kwargs: Any) -> Any:
            output: Any = generator(prompt, **generation_kwargs)
            written.extend([output] if isinstance(output, str) else list(output))
            return output

        return generate

    monkeypatch.setattr(outlines, "Generator", recording)
    return written
