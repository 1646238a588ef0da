"""The compact static trie: structure, lookups, tombstones."""

from __future__ import annotations

import numpy as np

from engram.concept_keys.static_trie import NO_KEY, FlatTokens, StaticTrie

KEYS = ["ab", "abc", "b", "a", "abd"]
TOKENS = [[1, 2], [1, 2, 3], [2], [1], [1, 2, 4]]


def walk(trie: StaticTrie, tokens: list[int]) -> int:
    node = 0
    for token in tokens:
        node = trie.child(node, token)
        if node < 0:
            return -1
    return node


def test_every_key_ends_at_its_own_terminal_node() -> None:
    trie = StaticTrie(KEYS, TOKENS)
    for key_id, tokens in enumerate(TOKENS):
        assert trie.live_key(walk(trie, tokens)) == key_id
    assert trie.node_count == 6  # root, 1, 1-2, 1-2-3, 1-2-4, 2: shared prefixes share nodes
    assert trie.live[0] == len(KEYS)


def test_children_are_sorted_and_breadth_first() -> None:
    trie = StaticTrie(KEYS, TOKENS)
    assert trie.children(0).tolist() == [1, 2]
    assert trie.children(walk(trie, [1, 2])).tolist() == [3, 4]
    assert trie.child(0, 7) == -1
    assert trie.max_tokens == 3


def test_a_tombstone_hides_a_key_and_prunes_dead_branches() -> None:
    trie = StaticTrie(KEYS, TOKENS)
    assert trie.set_alive([1, 2, 3], False)
    assert not trie.set_alive([1, 2, 3], False)  # already gone
    node = walk(trie, [1, 2])
    assert trie.children(node).tolist() == [4]
    assert trie.set_alive([1, 2, 4], False)
    assert trie.children(node).tolist() == []
    assert trie.live_key(node) == KEYS.index("ab")  # "ab" itself is still a key
    assert trie.set_alive([1, 2, 3], True)
    assert trie.children(node).tolist() == [3]
    assert not trie.set_alive([9], False)  # never there


def test_live_keys_come_back_with_their_tokens() -> None:
    trie = StaticTrie(KEYS, TOKENS)
    trie.set_alive([2], False)
    keys, tokens = trie.live_keys()
    assert dict(zip(keys, tokens.split(), strict=True)) == {k: t for k, t in zip(KEYS, TOKENS, strict=True) if k != "b"}


def test_flat_tokens_build_the_same_trie() -> None:
    flat = StaticTrie(KEYS, FlatTokens.of(TOKENS))
    nested = StaticTrie(KEYS, TOKENS)
    assert flat.offsets.tolist() == nested.offsets.tolist() and flat.tokens.tolist() == nested.tokens.tolist()
    assert FlatTokens.of(TOKENS).split() == TOKENS
    assert FlatTokens.concat([FlatTokens.of(TOKENS[:2]), FlatTokens.of(TOKENS[2:])]).split() == TOKENS


def test_an_empty_trie_has_only_a_dead_root() -> None:
    trie = StaticTrie([], [])
    assert trie.node_count == 1
    assert trie.children(0).size == 0
    assert trie.live_key(0) == NO_KEY
    assert trie.path([1]) is None


def test_memory_is_a_few_flat_arrays() -> None:
    rng = np.random.default_rng(0)
    tokens = [rng.integers(3, 50_000, size=int(rng.integers(1, 9))).tolist() for _ in range(20_000)]
    unique = {tuple(t): f"k{i}" for i, t in enumerate(tokens)}
    trie = StaticTrie(list(unique.values()), [list(t) for t in unique])
    assert trie.nbytes() < 40 * sum(len(t) for t in unique)
    assert all(trie.live_key(walk(trie, list(t))) >= 0 for t in list(unique)[:500])
