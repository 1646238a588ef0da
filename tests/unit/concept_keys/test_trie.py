"""The key trie (static + delta + tombstones) against a plain set of keys, under random inserts and removals."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engram.concept_keys.tokenization import KeyTokenizer
from engram.concept_keys.trie import KeyTrie
from tests.support.hypothesis_checks import SUPPRESSED_CHECKS
from tests.support.key_strategies import schemas, writable_keys

OPERATIONS = st.lists(st.tuples(st.booleans(), st.integers(0, 30)), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=SUPPRESSED_CHECKS)
@given(initial=schemas(), more=schemas(), operations=OPERATIONS, merge_every=st.integers(1, 6))
def test_the_trie_holds_exactly_the_live_keys(
    key_tokenizer: KeyTokenizer,
    initial: list[str],
    more: list[str],
    operations: list[tuple[bool, int]],
    merge_every: int,
) -> None:
    trie = KeyTrie(key_tokenizer, initial, min_merge=merge_every, merge_ratio=0.0)
    expected = set(initial) - set(trie.rejected)
    pool = initial + more
    for insert, index in operations:
        if not pool:
            break
        key = pool[index % len(pool)]
        if insert:
            assert trie.insert(key) == (key not in expected)
            expected.add(key)
        else:
            assert trie.remove(key) == (key in expected)
            expected.discard(key)
        assert len(trie) == len(expected)
    assert writable_keys(trie) == expected
    assert set(trie.keys()) == expected
    assert all(key in trie for key in expected)
    assert not any(key in trie for key in set(pool) - expected)


def test_prefix_keys_end_where_longer_keys_go_on(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["art", "art/painting", "a"])
    state = trie.subtree("art")
    assert state is not None and trie.is_key(state)
    assert trie.eos_token_id in trie.allowed(state).tolist()
    assert len(trie.allowed(state)) > 1  # and may continue towards "art/painting"


def test_a_removed_static_key_comes_back_without_a_merge(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["alpha", "beta"], min_merge=100)
    trie.remove("alpha")
    assert writable_keys(trie) == {"beta"}
    trie.insert("alpha")
    trie.insert("gamma")
    assert writable_keys(trie) == {"alpha", "beta", "gamma"}
    assert trie.merges == 0


def test_the_delta_is_merged_once_it_outgrows_its_share(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, [f"key {i}" for i in range(100)], merge_ratio=0.05, min_merge=3)
    for i in range(6):
        trie.insert(f"new {i}")
    assert trie.merges == 1
    assert writable_keys(trie) == {f"key {i}" for i in range(100)} | {f"new {i}" for i in range(6)}


def test_a_generation_keeps_its_snapshot_across_a_merge(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["one", "two"], min_merge=0, merge_ratio=0.0)
    state = trie.root()
    trie.insert("three")  # merges at once: the state still walks the trie it started on
    assert trie.merges == 1
    assert state.static is not trie.root().static
    assert trie.allowed(state).size > 0
