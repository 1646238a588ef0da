"""The schema's keys as one token trie: a compact static part, a small delta of recent inserts, tombstones.

Insert goes to the delta trie (or revives a tombstoned static key); remove tombstones a static key or prunes
the delta. When the delta outgrows `merge_ratio` of the static part (or tombstones pile up), both are merged
into a new static trie from stored tokens, without tokenising anything again. Writers hold a lock; readers
need none: a decoding state keeps references to the static and delta tries it started on, so a merge never
pulls the ground from under a running generation (only liveness updates are seen as they happen).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from engram.concept_keys.delta_trie import DeltaNode, DeltaTrie
from engram.concept_keys.static_trie import NO_KEY, FlatTokens, StaticTrie
from engram.concept_keys.tokenization import KeyTokenizer


@dataclass(frozen=True)
class TrieState:
    """Where a partial key stands: a node of the static trie (-1: off it) and/or of the delta trie."""

    static: StaticTrie
    node: int
    delta_node: DeltaNode | None


class KeyTrie:
    def __init__(
        self,
        tokenizer: KeyTokenizer,
        keys: Iterable[str] = (),
        merge_ratio: float = 0.05,
        min_merge: int = 4096,
    ) -> None:
        self.tokenizer = tokenizer
        self.eos_token_id = tokenizer.eos_token_id
        self._merge_ratio = merge_ratio
        self._min_merge = min_merge
        self._lock = threading.Lock()
        accepted, tokens, self.rejected = tokenizer.encode_flat(list(dict.fromkeys(keys)))
        self._static = StaticTrie(accepted, tokens)
        self._delta = DeltaTrie()
        self._static_live = len(accepted)
        self.version = 0  # bumped by every change
        self.merges = 0

    def __len__(self) -> int:
        return self._static_live + self._delta.size

    def __contains__(self, key: object) -> bool:
        tokens = self.tokenizer.key_tokens(key) if isinstance(key, str) else None
        return tokens is not None and self._contains_tokens(tokens)

    def _contains_tokens(self, token_ids: Sequence[int]) -> bool:
        static, delta = self._static, self._delta
        nodes = static.path(token_ids)
        if nodes is not None and static.live_key(nodes[-1]) != NO_KEY:
            return True
        found = delta.find(token_ids)
        return found is not None and found.key is not None

    def keys(self) -> list[str]:
        live, _ = self._static.live_keys()
        return live + [key for key, _ in self._delta.items()]

    @property
    def max_tokens(self) -> int:
        """The longest key in tokens (an upper bound after removals): the decoding budget."""
        return max(self._static.max_tokens, self._delta.max_tokens)

    def nbytes(self) -> int:
        return self._static.nbytes()

    # --- writes -------------------------------------------------------------------------------------------
    def insert(self, key: str) -> bool:
        """Add a key (InvalidKey if it cannot be held); False when it is already there."""
        return self._insert_tokens(key, self.tokenizer.encode_key(key))

    def insert_many(self, keys: Sequence[str]) -> int:
        """Add keys, tokenised in one batch; keys that cannot be held are skipped. Returns how many were new."""
        accepted, tokens, _ = self.tokenizer.encode_keys(keys)
        return sum(self._insert_tokens(k, t) for k, t in zip(accepted, tokens, strict=True))

    def remove(self, key: str) -> bool:
        tokens = self.tokenizer.key_tokens(key)
        return tokens is not None and self._remove_tokens(tokens)

    def remove_many(self, keys: Sequence[str]) -> int:
        _, tokens, _ = self.tokenizer.encode_keys(keys)
        return sum(self._remove_tokens(t) for t in tokens)

    def _insert_tokens(self, key: str, token_ids: list[int]) -> bool:
        with self._lock:
            static = self._static
            nodes = static.path(token_ids)
            if nodes is not None and static.terminal[nodes[-1]] != NO_KEY:  # a static key, alive or tombstoned
                if not static.set_alive(token_ids, True):
                    return False
                self._static_live += 1
            elif not self._delta.insert(key, token_ids):
                return False
            self.version += 1
            if self._delta.size > max(self._min_merge, self._merge_ratio * self._static_live):
                self._merge()
            return True

    def _remove_tokens(self, token_ids: list[int]) -> bool:
        with self._lock:
            if self._static.set_alive(token_ids, False):
                self._static_live -= 1
            elif not self._delta.remove(token_ids):
                return False
            self.version += 1
            dead = len(self._static.keys) - self._static_live
            if dead > max(self._min_merge, self._static_live):
                self._merge()
            return True

    def merge(self) -> None:
        """Fold the delta and the tombstones into a new static trie (normally automatic)."""
        with self._lock:
            self._merge()

    def _merge(self) -> None:
        keys, tokens = self._static.live_keys()
        added = self._delta.items()
        keys += [key for key, _ in added]
        self._static = StaticTrie(keys, FlatTokens.concat([tokens, FlatTokens.of([ids for _, ids in added])]))
        self._delta = DeltaTrie()  # a new object: running generations keep the old one
        self._static_live = len(keys)
        self.merges += 1

    # --- reads (decoding) --------------------------------------------------------------------------------
    def root(self) -> TrieState:
        return TrieState(self._static, 0, self._delta.root)

    def subtree(self, prefix: str) -> TrieState | None:
        """The state after the tokens of `prefix` (None if no key continues it along those tokens)."""
        state: TrieState | None = self.root()
        for token in self.tokenizer.encode_unchecked([prefix])[0] if prefix else []:
            state = self.step(state, token) if state is not None else None
        return state

    def step(self, state: TrieState, token: int) -> TrieState | None:
        node = state.static.child(state.node, token) if state.node >= 0 else -1
        delta = state.delta_node.children.get(token) if state.delta_node is not None else None
        if node < 0 and delta is None:
            return None
        return TrieState(state.static, node, delta)

    def is_key(self, state: TrieState) -> bool:
        static_key = state.node >= 0 and state.static.live_key(state.node) != NO_KEY
        return static_key or (state.delta_node is not None and state.delta_node.key is not None)

    def allowed(self, state: TrieState) -> NDArray[np.int64]:
        """Tokens that continue towards a live key, plus EOS where a key ends here."""
        parts: list[NDArray[np.int64]] = []
        if state.node >= 0:
            parts.append(state.static.children(state.node).astype(np.int64))
        if state.delta_node is not None and state.delta_node.children:
            parts.append(np.fromiter(state.delta_node.children, dtype=np.int64))
        if self.is_key(state):
            parts.append(np.array([self.eos_token_id], np.int64))
        if not parts:
            return np.zeros(0, np.int64)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]
