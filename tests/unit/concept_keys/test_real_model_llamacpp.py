"""Constrained key naming on llama.cpp (`ENGRAM_KEYS_BACKEND=llamacpp`), on the real GGUF file of the local-model
extra: the key trie's processor through the numpy wrapper, one prompt at a time, k keys one decode after another.
Needs llama-cpp-python (skipped, saying why, without it)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from engram.concept_keys.decoder import KeyDecoder
from engram.concept_keys.prompts import concept_key_prompt, query_keys_prompt
from engram.concept_keys.tokenization import NEW_KEY_MARKER
from engram.concept_keys.trie import KeyTrie
from engram.settings import EngramSettings
from tests.unit.concept_keys.test_real_model import KEYS, PEOPLE, THINGS

pytestmark = [pytest.mark.local_model, pytest.mark.timeout(1800)]
DECODES = 128


@pytest.fixture(scope="module")
def llama(local_gguf: Path, settings: EngramSettings) -> Any:
    from engram.llamacpp_model import load_llamacpp

    return load_llamacpp("gemma3-270m", settings.state_dir)


@pytest.fixture(scope="module")
def greedy(llama: Any) -> KeyDecoder:
    return KeyDecoder(llama.model)


def test_llamacpp_and_the_key_trie_tokenise_alike(llama: Any, greedy: KeyDecoder) -> None:
    """The trie holds transformers' token ids and masks llama.cpp's logits by them: they must be the same ids."""
    from llama_cpp.llama_tokenizer import LlamaTokenizer

    native = LlamaTokenizer(llama.model.model)
    for key in KEYS:
        assert native.tokenize(key.encode(), add_bos=False, special=False) == greedy.tokenizer.encode_key(key), key
    assert llama.model.model.token_eos() == greedy.tokenizer.eos_token_id
    # A completion adds BOS itself and tokenises the prompt with add_bos=False: no second BOS from the wrapper.
    bos = llama.model.model.token_bos()
    assert llama.model.model.tokenize(b"Question:", add_bos=False, special=True)[:1] != [bos]
    assert llama.model.model.tokenize(b"Question:", add_bos=True, special=True)[:1] == [bos]
    assert llama.model.model.n_vocab() >= greedy.tokenizer.vocab_size


def test_every_key_named_over_a_hundred_sampled_decodes_exists(llama: Any) -> None:
    sampling = KeyDecoder(llama.model, temperature=1.0, top_k=0, top_p=1.0, seed=0)
    trie = KeyTrie(sampling.tokenizer, KEYS)
    rows = itertools.islice(itertools.cycle(itertools.product(PEOPLE, THINGS)), 0, DECODES * 5, 5)
    prompts = [query_keys_prompt(f"What did {p.title()} say about the {t}?") for p, t in rows]
    named = sampling.name_key_each(prompts, trie)
    assert len(named) == DECODES and all(c is not None for c in named)
    outside = [c for c in named if c is not None and (c.new or c.key not in set(KEYS))]
    assert not outside, outside
    assert len({c.key for c in named if c is not None}) > 5  # sampling reached many keys, not one


def test_k_keys_are_k_different_keys_of_the_trie(greedy: KeyDecoder) -> None:
    trie = KeyTrie(greedy.tokenizer, KEYS)
    choices = greedy.name_keys(query_keys_prompt("When did Caroline go to the pottery class in Paris?"), trie, 4)
    assert len(choices) == 4 and len({c.key for c in choices}) == 4
    assert all(not c.new and c.key in trie for c in choices), choices


def test_the_escape_gives_one_line_and_ends(greedy: KeyDecoder) -> None:
    empty = KeyTrie(greedy.tokenizer)  # nothing exists: only the escape is open
    prompts = [concept_key_prompt("Leo bought a bowl.", "bowl"), concept_key_prompt("Jon ran a race.", "race")]
    generator, kwargs = greedy._generator(empty, allow_new=True)
    for text in (str(generator(prompt, **kwargs)) for prompt in prompts):
        assert text.startswith(NEW_KEY_MARKER), repr(text)
        rest = text[len(NEW_KEY_MARKER) :]
        assert rest.strip() and NEW_KEY_MARKER not in rest and "\n" not in rest.rstrip("\n"), repr(text)
    choices = greedy.name_key_each(prompts, empty, allow_new=True)
    assert all(c is not None and c.new and c.key and "\n" not in c.key for c in choices), choices


def test_a_key_added_to_the_schema_is_nameable_on_the_next_call(greedy: KeyDecoder) -> None:
    trie = KeyTrie(greedy.tokenizer, PEOPLE[:4])
    prompt = query_keys_prompt("What did Caroline learn at the ceramics workshop?")
    assert {c.key for c in greedy.name_keys(prompt, trie, len(trie) + 1)} == set(PEOPLE[:4])
    trie.insert("ceramics workshop")
    trie.remove("jon")
    after = {c.key for c in greedy.name_keys(prompt, trie, len(trie) + 1)}
    assert after == {*PEOPLE[:4], "ceramics workshop"} - {"jon"}


def test_outlines_json_constraints_on_llamacpp_without_numba_are_a_clear_error(llama: Any) -> None:
    """Without numba, Outlines' JSON constraint fails inside llama.cpp's callback and the model writes free text;
    the extractor's generate function refuses to start instead (with numba, it compiles as for transformers)."""
    import importlib.util

    from engram.extraction.llm import outlines_generate_fn
    from engram.local_model import LocalModelError

    if importlib.util.find_spec("numba") is not None:
        pytest.skip("numba is installed here: the constraint runs, nothing to refuse")
    with pytest.raises(LocalModelError, match="need numba"):
        outlines_generate_fn(llama.model, compile_budget_s=300)
