"""The chunk cache gives exactly the tokens, and the accept/reject verdicts, of direct encoding."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.concept_keys.tokenization import KeyTokenizer
from tests.support.hypothesis_checks import SUPPRESSED_CHECKS
from tests.support.key_strategies import schemas
from tests.support.tiny_lm import CORPUS

# Llama 3's pre-tokenizer regex (Qwen2's differs only in digit grouping): punctuation joins the next word.
LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)


def llama3_style_tokenizer() -> Any:
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=["<s>", "</s>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    core.train_from_iterator(CORPUS * 20, trainer=trainer)
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=core, bos_token="<s>", eos_token="</s>"
    )


@pytest.fixture(scope="module")
def tokenizers(tiny_lm: tuple[Any, Any]) -> list[tuple[KeyTokenizer, KeyTokenizer]]:
    """(cached, direct) pairs: the tiny GPT-2-style BPE and a Llama-3-style one."""
    pairs = []
    for hf in (tiny_lm[1], llama3_style_tokenizer()):
        cached, direct = KeyTokenizer(hf), KeyTokenizer(hf)
        direct.cache = None
        assert cached.cache is not None, "byte-level BPE passes the startup check"
        pairs.append((cached, direct))
    return pairs


_KEYS = st.one_of(
    st.text(min_size=1, max_size=24),
    st.text(alphabet=st.sampled_from("ab é/'-_.1 2🙂\t\n:"), min_size=1, max_size=24),
    st.lists(st.sampled_from(["person", "/alice", " with", "'s", " 12", "</s>", "<s>", "+new:"]), min_size=1).map(
        "".join
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=SUPPRESSED_CHECKS)
@given(keys=st.lists(_KEYS, min_size=1, max_size=80, unique=True) | schemas(max_size=40))
def test_cached_tokens_equal_direct_encoding(
    tokenizers: list[tuple[KeyTokenizer, KeyTokenizer]], keys: list[str]
) -> None:
    for cached, direct in tokenizers:
        assert cached.encode_keys(keys) == direct.encode_keys(keys)
        assert [cached.key_tokens(k) for k in keys] == [direct.key_tokens(k) for k in keys]
        ok, flat, bad = cached.encode_flat(keys, chunk=16)
        want_ok, want_tokens, want_bad = direct.encode_keys(keys)
        assert dict(zip(ok, flat.split(), strict=True)) == dict(zip(want_ok, want_tokens, strict=True))
        assert sorted(bad) == sorted(want_bad) and len(ok) == len(want_ok)
        assert cached.cache is not None, "no disagreement on these keys"


def test_special_token_text_is_never_vouched_for(key_tokenizer: KeyTokenizer) -> None:
    assert key_tokenizer.cache is not None
    assert key_tokenizer.cache.assemble(["a</s>b", "x <s>", "<s>", "plain words"])[:3] == [None, None, None]
    assert key_tokenizer.key_tokens("a</s>b") is None  # direct encoding: EOS inside


def test_a_disagreeing_cache_is_switched_off_and_keys_are_encoded_directly(tiny_lm: tuple[Any, Any]) -> None:
    keys = [f"person/alice {i}" for i in range(200)]
    cached, direct = KeyTokenizer(tiny_lm[1]), KeyTokenizer(tiny_lm[1])
    direct.cache = None
    assert cached.cache is not None
    cached.cache.assemble(keys)
    chunk = cached.cache.index["person"]
    cached.cache._tokens[cached.cache._offsets[chunk]] += 1  # a wrong cached token in every key
    cached.cache._arrays = None
    ok, flat, bad = cached.encode_flat(keys)
    assert cached.cache is None
    assert (ok, flat.split(), bad) == (keys, direct.encode_keys(keys)[1], [])


def test_single_keys_use_chunks_that_batches_cached(key_tokenizer: KeyTokenizer) -> None:
    cache = key_tokenizer.cache
    assert cache is not None
    key = "zebra/crossing quietly"
    direct = key_tokenizer.encode_unchecked([key])[0]
    before = len(cache)
    assert cache.assemble_one(key) is None and key_tokenizer.key_tokens(key) == direct  # new chunks: direct
    assert len(cache) == before
    key_tokenizer.encode_keys(["zebra/crossing quietly", "zebra/stripes"])
    assert len(cache) > before
    assert cache.assemble_one(key) == direct == key_tokenizer.key_tokens(key)
