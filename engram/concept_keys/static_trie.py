"""A compact, immutable token trie in flat numpy arrays, built in one vectorised pass.

Nodes are numbered breadth-first, so the children of a node are contiguous, sorted by token, and the child in
slot `j` is node `j + 1`. Per node: `offsets` (first child slot), `tokens` (the edge token into the node),
`terminal` (the key id ending here, or -1), `live` (live keys in the subtree; the only mutable array, so a
removed key is a tombstone that costs no rebuild). About 13 bytes per node plus the keys' own tokens.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

NO_KEY = -1


class FlatTokens(NamedTuple):
    """Many keys' tokens without a Python object per token: concatenated, with each key's length."""

    flat: NDArray[np.int32]
    lengths: NDArray[np.int64]

    @classmethod
    def of(cls, token_ids: Sequence[Sequence[int]]) -> FlatTokens:
        lengths = np.fromiter((len(t) for t in token_ids), dtype=np.int64, count=len(token_ids))
        flat = np.fromiter(chain.from_iterable(token_ids), dtype=np.int32, count=int(lengths.sum()))
        return cls(flat, lengths)

    @classmethod
    def concat(cls, parts: Sequence[FlatTokens]) -> FlatTokens:
        return cls(
            np.concatenate([np.zeros(0, np.int32), *(p.flat for p in parts)]),
            np.concatenate([np.zeros(0, np.int64), *(p.lengths for p in parts)]),
        )

    def split(self) -> list[list[int]]:
        ends = np.cumsum(self.lengths)
        return [self.flat[end - n : end].tolist() for end, n in zip(ends, self.lengths, strict=True)]


class StaticTrie:
    def __init__(self, keys: Sequence[str], token_ids: Sequence[Sequence[int]] | FlatTokens) -> None:
        """The tokens of `keys[i]` (non-empty, distinct keys): `token_ids[i]`, or the i-th run of a FlatTokens."""
        self.keys: list[str] = list(keys)
        tokens = token_ids if isinstance(token_ids, FlatTokens) else FlatTokens.of(token_ids)
        lengths = tokens.lengths
        if len(lengths) and int(lengths.min()) == 0:
            raise ValueError("a key must have at least one token")
        self.key_offsets: NDArray[np.int64] = np.zeros(len(lengths) + 1, np.int64)
        np.cumsum(lengths, out=self.key_offsets[1:])
        self.key_tokens: NDArray[np.int32] = tokens.flat.astype(np.int32, copy=False)
        self.alive: NDArray[np.bool_] = np.ones(len(lengths), np.bool_)
        self._build(lengths)
        # Views for single-element reads from Python: a plain int per index, without numpy scalar overhead.
        self._offsets, self._tokens = self.offsets.data, self.tokens.data
        self._terminal, self._live, self._alive = self.terminal.data, self.live.data, self.alive.data

    def _build(self, lengths: NDArray[np.int64]) -> None:
        n_keys, depth = len(lengths), int(lengths.max()) if len(lengths) else 0
        self.max_tokens = depth
        matrix = np.full((n_keys, depth), -1, np.int32)
        rows = np.repeat(np.arange(n_keys), lengths)
        cols = np.arange(len(self.key_tokens)) - np.repeat(self.key_offsets[:-1], lengths)
        matrix[rows, cols] = self.key_tokens
        order = np.lexsort(matrix.T[::-1]) if depth else np.arange(n_keys)
        matrix, lengths = matrix[order], lengths[order]
        lcp = np.zeros(n_keys, np.int64)  # tokens shared with the previous key in sorted order
        if n_keys > 1:
            differs = matrix[1:] != matrix[:-1]
            lcp[1:] = np.where(differs.any(axis=1), differs.argmax(axis=1), depth)
        parents: list[NDArray[np.int64]] = []
        tokens: list[NDArray[np.int32]] = []
        terminal_nodes = np.zeros(n_keys, np.int64)
        path = np.zeros(n_keys, np.int64)  # node on each key's path at the previous depth (root = 0)
        next_id = 1
        for d in range(depth):
            created = (lcp <= d) & (lengths > d)
            count = int(created.sum())
            ids = np.where(created, np.cumsum(created) - 1 + next_id, 0)
            parents.append(path[created])
            tokens.append(matrix[created, d])
            path = np.maximum.accumulate(ids)  # rows that share this prefix reuse the row above's node
            ends = lengths == d + 1
            terminal_nodes[ends] = path[ends]
            next_id += count
        n_nodes = next_id
        parent = np.concatenate([np.zeros(1, np.int64), *parents])
        self.tokens: NDArray[np.int32] = np.concatenate([np.zeros(0, np.int32), *tokens])
        child_count = np.bincount(parent[1:], minlength=n_nodes)
        self.offsets: NDArray[np.int64] = np.zeros(n_nodes + 1, np.int64)
        np.cumsum(child_count, out=self.offsets[1:])
        self.terminal: NDArray[np.int32] = np.full(n_nodes, NO_KEY, np.int32)
        self.terminal[terminal_nodes] = order.astype(np.int32)
        self.live: NDArray[np.int32] = np.zeros(n_nodes, np.int32)
        np.add.at(self.live, terminal_nodes, 1)
        for level in reversed(range(len(parents))):  # children are counted into their parents, deepest first
            start = 1 + sum(len(p) for p in parents[:level])
            np.add.at(self.live, parents[level], self.live[start : start + len(parents[level])])

    @property
    def node_count(self) -> int:
        return len(self.terminal)

    def nbytes(self) -> int:
        arrays = (self.offsets, self.tokens, self.terminal, self.live, self.key_tokens, self.key_offsets, self.alive)
        return sum(a.nbytes for a in arrays)

    def _slot(self, node: int, token: int) -> int:
        """The child slot of `node` along `token` (live or not), or -1."""
        lo, hi = self._offsets[node], self._offsets[node + 1]
        j = bisect_left(self._tokens, token, lo, hi)
        return j if j < hi and self._tokens[j] == token else -1

    def child(self, node: int, token: int) -> int:
        """The live child of `node` along `token`, or -1."""
        j = self._slot(node, token)
        return j + 1 if j >= 0 and self._live[j + 1] > 0 else -1

    def children(self, node: int) -> NDArray[np.int32]:
        """Tokens that continue `node` towards at least one live key."""
        lo, hi = int(self.offsets[node]), int(self.offsets[node + 1])
        return self.tokens[lo:hi][self.live[lo + 1 : hi + 1] > 0]

    def live_key(self, node: int) -> int:
        """The live key id ending at `node`, or -1."""
        key = self._terminal[node]
        return key if key != NO_KEY and self._alive[key] else NO_KEY

    def path(self, token_ids: Sequence[int]) -> list[int] | None:
        """Nodes from the root along `token_ids` (ignoring liveness), or None where the path leaves the trie."""
        nodes = [0]
        for token in token_ids:
            j = self._slot(nodes[-1], token)
            if j < 0:
                return None
            nodes.append(j + 1)
        return nodes

    def set_alive(self, token_ids: Sequence[int], alive: bool) -> bool:
        """Tombstone (or revive) the key with these tokens; False when it is not here or already so."""
        nodes = self.path(token_ids)
        if nodes is None or self._terminal[nodes[-1]] == NO_KEY:
            return False
        key = self._terminal[nodes[-1]]
        if bool(self._alive[key]) == alive:
            return False
        self._alive[key] = alive
        step = 1 if alive else -1
        for node in nodes:
            self._live[node] += step
        return True

    def live_keys(self) -> tuple[list[str], FlatTokens]:
        """Every live key with its tokens (for merging into a new trie), without a Python object per token."""
        ids = np.flatnonzero(self.alive)
        lengths = np.diff(self.key_offsets)[ids]
        starts = self.key_offsets[ids]
        # Index of every token of every live key: each key's start, repeated, plus its position in the key.
        within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        flat = self.key_tokens[np.repeat(starts, lengths) + within]
        return [self.keys[i] for i in ids], FlatTokens(flat, lengths)
