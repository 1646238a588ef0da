"""An Outlines logits processor that lets a model write only keys of a `KeyTrie` (or the new-key escape).

Each row's state is derived from the tokens it generated so far (cached by token prefix), never from its row
index: beam search reorders rows between steps. A row may also write `NEW_KEY_MARKER` (when allowed), after
which it writes one line of free text: a candidate key for accommodation, never taken as an existing key. That line
may not start blank or with EOS, never holds the marker's first character, and ends at a line break or after
`max_new_key_tokens` (only EOS is open then): a real base model otherwise answered `+new:\n+new:\n+new:` until its
budget ran out, or copied the prompt's "write +new: followed by a short new key".
Create one processor per request (Outlines' `Generator` resets it before each call, but it is not shared
safely between threads). `excluded` keys may not end there (their EOS is closed): how a backend without beam search
(llama.cpp) names k distinct keys, one decode after another. `NumpyTrieProcessor` serves the same rules to a backend
that hands numpy arrays (llama.cpp: one row, the whole sequence so far).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from outlines.processors.base_logits_processor import OutlinesLogitsProcessor

from engram.concept_keys.trie import KeyTrie, TrieState


@dataclass(frozen=True)
class RowState:
    trie: TrieState | None  # None: the row has left the trie
    escape: int | None  # tokens of the new-key marker matched so far (None: not on the escape path)
    free: int = -1  # tokens written after a complete marker (-1: no marker yet)
    ended: bool = False  # the new key's line is complete (a line break was written): only EOS is open


Allowed = np.ndarray[Any, np.dtype[np.int64]]


class TrieLogitsProcessor(OutlinesLogitsProcessor):
    def __init__(
        self,
        trie: KeyTrie,
        start: TrieState | None = None,
        escape_tokens: list[int] | None = None,
        max_new_key_tokens: int = 16,
        excluded: list[list[int]] | None = None,
    ) -> None:
        super().__init__("torch")
        self.trie = trie
        self._start = start
        self._excluded = {tuple(tokens) for tokens in excluded or []}
        # For each prefix of an excluded key: the next tokens on excluded paths (checked before they are allowed).
        self._onto_excluded: dict[tuple[int, ...], set[int]] = {}
        for path in self._excluded:
            for end in range(len(path)):
                self._onto_excluded.setdefault(path[:end], set()).add(path[end])
        self._escape = escape_tokens or []
        self._max_free = max_new_key_tokens
        if self._escape:
            blank, line_breaks, marker = trie.tokenizer.free_text_stops()
            # Never in a new key: the marker (a loop). Not its first token: a blank one, or EOS (an empty key).
            self._never = np.unique(np.concatenate([marker, [self._escape[0]]])).astype(np.int64)
            self._not_first = np.unique(np.concatenate([blank, self._never, [trie.eos_token_id]])).astype(np.int64)
            self._breaks = set(line_breaks.tolist())
        self.reset()

    def reset(self) -> None:
        root = self._start if self._start is not None else self.trie.root()
        self._states: dict[tuple[int, ...], RowState] = {(): RowState(root, 0 if self._escape else None)}
        self._prompt_length: int | None = None

    def _advance(self, state: RowState, token: int) -> RowState:
        if state.free >= 0:
            return RowState(None, None, state.free + 1, ended=state.ended or token in self._breaks)
        trie = self.trie.step(state.trie, token) if state.trie is not None else None
        escape = state.escape
        escape = (
            escape + 1 if escape is not None and escape < len(self._escape) and self._escape[escape] == token else None
        )
        if escape is not None and escape == len(self._escape):
            return RowState(None, None, free=0)
        return RowState(trie, escape)

    def state(self, generated: tuple[int, ...]) -> RowState:
        known = self._states.get(generated)
        if known is None:
            known = self._advance(self.state(generated[:-1]), generated[-1])
            self._states[generated] = known
        return known

    def banned(self, state: RowState) -> Allowed | None:
        """Token ids a row writing a new key may not write next (None: the row is constrained by `allowed`)."""
        if state.ended or not 0 <= state.free < self._max_free:
            return None
        return self._not_first if state.free == 0 else self._never

    def allowed(self, state: RowState) -> Allowed | None:
        """Allowed token ids (None: any token but the `banned` ones)."""
        if not state.ended and 0 <= state.free < self._max_free:
            return None
        parts = [self.trie.allowed(state.trie)] if state.trie is not None else []
        if state.escape is not None:
            parts.append(np.array([self._escape[state.escape]], np.int64))
        tokens = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        # A dead row (it finished, or a concurrent removal emptied its subtree) may only end.
        return tokens if len(tokens) else np.array([self.trie.eos_token_id], np.int64)

    def rules(self, generated: tuple[int, ...]) -> tuple[Allowed | None, Allowed | None]:
        """(allowed, banned) for a row that generated `generated`: no token into a part of the trie that holds only
        excluded keys, no end of an excluded key."""
        state = self.state(generated)
        tokens, banned = self.allowed(state), self.banned(state)
        if tokens is None or not self._excluded:
            return tokens, banned
        closed = [t for t in self._onto_excluded.get(generated, ()) if self._only_excluded((*generated, t))]
        if generated in self._excluded:
            closed.append(self.trie.eos_token_id)
        open_tokens = tokens[~np.isin(tokens, closed)] if closed else tokens
        return (open_tokens if len(open_tokens) else tokens), banned  # nothing else left: it ends, dropped as named

    def _only_excluded(self, path: tuple[int, ...]) -> bool:
        """Every key through `path` is excluded: a depth-first walk that stops at the first other key."""
        eos = self.trie.eos_token_id
        stack = [path]
        while stack:
            here = stack.pop()
            state = self.state(here).trie
            if state is None:
                continue
            for token in self.trie.allowed(state).tolist():
                if token == eos:
                    if here not in self._excluded:
                        return False
                else:
                    stack.append((*here, token))
        return True

    def process_logits(self, input_ids: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        if self._prompt_length is None:
            self._prompt_length = int(input_ids.shape[1])
        if logits.device.type == "cpu" and logits.dtype == torch.float32 and input_ids.device.type == "cpu":
            # Sliced in numpy: a torch slice costs ~20 us per step, more than the vocabulary-wide fill.
            generated = input_ids.detach().numpy()[:, self._prompt_length :].tolist()
            return self._mask_in_place(logits, [self.rules(tuple(tokens)) for tokens in generated])
        rows = [self.rules(tuple(tokens)) for tokens in input_ids[:, self._prompt_length :].tolist()]
        mask = torch.zeros(logits.shape, dtype=torch.bool, device=logits.device)
        for row, (tokens, banned) in enumerate(rows):
            if tokens is None:
                mask[row] = True
                if banned is not None and len(banned):
                    mask[row, torch.from_numpy(banned).to(logits.device)] = False
            else:
                mask[row, torch.from_numpy(tokens).to(logits.device)] = True
        return logits.masked_fill(~mask, float("-inf"))

    @staticmethod
    def _mask_in_place(logits: torch.Tensor, rows: list[tuple[Allowed | None, Allowed | None]]) -> torch.Tensor:
        """On CPU through numpy: a vocabulary-sized fill per row, with no torch dispatch or thread hand-off."""
        scores = logits.detach().numpy()
        for row, (tokens, banned) in enumerate(rows):
            if tokens is None:
                if banned is not None and len(banned):
                    scores[row, banned] = -np.inf
                continue
            kept = scores[row, tokens]
            scores[row].fill(-np.inf)
            scores[row, tokens] = kept
        return logits


class NumpyTrieProcessor(OutlinesLogitsProcessor):
    """A `TrieLogitsProcessor` for a backend that passes numpy arrays (Outlines' llama.cpp model): the same rules,
    the arrays seen as tensors without a copy (the scores are masked in place)."""

    def __init__(self, inner: TrieLogitsProcessor) -> None:
        super().__init__("numpy")
        self.inner = inner

    def reset(self) -> None:
        self.inner.reset()

    def process_logits(self, input_ids: Any, logits: Any) -> Any:
        scores = torch.from_numpy(np.ascontiguousarray(logits, dtype=np.float32))
        return self.inner.process_logits(torch.from_numpy(np.asarray(input_ids, np.int64)), scores).numpy()


_EMPTY: Allowed = np.zeros(0, np.int64)
