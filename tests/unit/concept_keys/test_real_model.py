"""Constrained key naming on real weights (Gemma 3 270M, the local-model extra): what a random-weight model never
reaches. Over a few hundred sampled decodes every key named exists; a new key comes only through the escape, as one
line, and the escape ends; a key added to the schema is nameable on the next call, with no rebuild."""

from __future__ import annotations

import itertools
from typing import Any

import outlines
import pytest
import torch

from engram.concept_keys.decoder import KeyDecoder
from engram.concept_keys.prompts import concept_key_prompt, query_keys_prompt
from engram.concept_keys.tokenization import NEW_KEY_MARKER
from engram.concept_keys.trie import KeyTrie

# A real model on two shared CPU cores: a test here took 5-10 min under a load of 15 (pytest's default limit: 10).
pytestmark = [pytest.mark.local_model, pytest.mark.timeout(1800)]

PEOPLE = ["caroline", "melanie", "jon", "gina", "leo", "maya", "john", "maria", "tim", "audrey"]
THINGS = [
    "pottery class",
    "adoption agency",
    "charity race",
    "blue bowl",
    "dog pixel",
    "support group",
    "hiking",
    "camping trip",
    "painting",
    "violin",
    "dance studio",
    "bakery",
    "paris",
    "lake tahoe",
    "sunflowers",
    "basketball",
    "book club",
    "guitar lessons",
    "marathon",
    "garden",
    "pride parade",
    "science fair",
]
KEYS = PEOPLE + THINGS + [f"{p} {t}" for p, t in itertools.product(PEOPLE[:5], THINGS[:12])]
QUESTIONS = [
    "When did {p} go to the {t}?",
    "What did {p} say about the {t}?",
    "Why does {p} like {t}?",
    "Who went with {p} to the {t}?",
]
BATCH = 16
DECODES = 256


@pytest.fixture(scope="module")
def sampling(local_model: Any) -> KeyDecoder:
    """Sampling at temperature 1: the model's whole distribution is reached, not just its favourite key."""
    return KeyDecoder(outlines.from_transformers(local_model.model, local_model.tokenizer), do_sample=True)


def questions(count: int) -> list[str]:
    rows = itertools.cycle(itertools.product(QUESTIONS, PEOPLE, THINGS))
    return [query_keys_prompt(q.format(p=p.title(), t=t)) for q, p, t in itertools.islice(rows, 0, count * 7, 7)]


def test_every_key_named_over_hundreds_of_sampled_decodes_exists(sampling: KeyDecoder) -> None:
    trie = KeyTrie(sampling.tokenizer, KEYS)
    prompts = questions(DECODES)
    torch.manual_seed(0)
    named = [c for i in range(0, DECODES, BATCH) for c in sampling.name_key_each(prompts[i : i + BATCH], trie)]
    assert len(named) == DECODES and all(c is not None for c in named)
    outside = [c for c in named if c is not None and (c.new or c.key not in set(KEYS))]
    assert not outside, outside
    assert len({c.key for c in named if c is not None}) > 10  # sampling reached many keys, not one


def test_a_new_key_comes_only_through_the_escape_as_one_line_and_the_escape_ends(sampling: KeyDecoder) -> None:
    trie = KeyTrie(sampling.tokenizer, KEYS)
    facts = [
        ("Caroline took swimming lessons in Paris.", "swimming lessons"),
        ("Leo bought a bowl.", "bowl"),
        ("Melanie ran a charity race.", "charity race"),
        ("Jon opened a dance studio.", "dance studio"),
    ]
    prompts = [concept_key_prompt(fact, phrase) for fact, phrase in facts] * 2
    generator, kwargs = sampling._generator(trie, allow_new=True)
    empty = KeyTrie(sampling.tokenizer)
    forced, forced_kwargs = sampling._generator(empty, allow_new=True)
    torch.manual_seed(1)
    texts = [str(t) for t in generator.batch(prompts, **kwargs)]
    texts += [str(t) for t in forced.batch(prompts, **forced_kwargs)]  # nothing exists: only the escape is open
    assert sum(t.startswith(NEW_KEY_MARKER) for t in texts) >= len(prompts)
    for text in texts:
        if not text.startswith(NEW_KEY_MARKER):
            assert text in trie, f"{text!r} is no key and was written without the escape"
            continue
        # The escape ended: one marker, then one line (a line break only at its end), within the token budget.
        rest = text[len(NEW_KEY_MARKER) :]
        assert NEW_KEY_MARKER not in rest and "\n" not in rest.rstrip("\n"), repr(text)
        assert rest.strip(), f"an empty new key: {text!r}"
        assert len(sampling.tokenizer.encode_unchecked([rest])[0]) <= kwargs["max_new_tokens"], repr(text)
    choices = sampling.name_key_each(prompts[: len(facts)], empty, allow_new=True)
    assert all(c is not None and c.new and c.key and "\n" not in c.key for c in choices), choices


def test_a_key_added_to_the_schema_is_nameable_on_the_next_call_without_a_rebuild(local_model: Any) -> None:
    decoder = KeyDecoder(outlines.from_transformers(local_model.model, local_model.tokenizer))
    trie = KeyTrie(decoder.tokenizer, PEOPLE[:4])
    prompt = query_keys_prompt("What did Caroline learn at the ceramics workshop?")
    before = {c.key for c in decoder.name_keys(prompt, trie, len(trie) + 1)}
    assert before == set(PEOPLE[:4])
    version = trie.version
    trie.insert("ceramics workshop")
    trie.remove("jon")
    after = {c.key for c in decoder.name_keys(prompt, trie, len(trie) + 1)}
    assert after == {*PEOPLE[:4], "ceramics workshop"} - {"jon"}
    assert trie.version == version + 2 and trie.merges == 0  # the same trie, changed in place
    named = decoder.name_key(prompt, trie)
    assert named is not None and named.key in trie
