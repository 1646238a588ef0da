"""The logits processor on its own: masks follow each row's tokens, whatever order rows come in."""

from __future__ import annotations

import numpy as np
import torch

from engram.concept_keys.processor import NumpyTrieProcessor, TrieLogitsProcessor
from engram.concept_keys.tokenization import KeyTokenizer
from engram.concept_keys.trie import KeyTrie


def allowed_ids(logits: torch.Tensor) -> list[set[int]]:
    return [set(torch.nonzero(torch.isfinite(row)).flatten().tolist()) for row in logits]


def test_rows_are_masked_by_their_own_prefix_even_when_reordered(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["alice", "paris"])
    alice, paris = key_tokenizer.encode_key("alice"), key_tokenizer.encode_key("paris")
    processor = TrieLogitsProcessor(trie)
    prompt = [5, 6]
    vocab = key_tokenizer.vocab_size
    first = processor(torch.tensor([prompt, prompt]), torch.zeros(2, vocab))
    assert allowed_ids(first) == [{alice[0], paris[0]}] * 2
    # Beam search may swap rows between steps: the masks must follow the tokens, not the row numbers.
    rows = torch.tensor([[*prompt, *paris], [*prompt, *alice]])
    second = processor(rows, torch.zeros(2, vocab))
    assert allowed_ids(second) == [{trie.eos_token_id}, {trie.eos_token_id}]


def test_a_dead_row_may_only_end(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["alice"])
    processor = TrieLogitsProcessor(trie)
    processor(torch.tensor([[5]]), torch.zeros(1, key_tokenizer.vocab_size))
    off_trie = key_tokenizer.encode_key("zzz")[0]
    masked = processor(torch.tensor([[5, off_trie]]), torch.zeros(1, key_tokenizer.vocab_size))
    assert allowed_ids(masked) == [{trie.eos_token_id}]


def test_the_escape_opens_one_line_of_free_text_for_a_bounded_number_of_tokens(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["alice"])
    marker = key_tokenizer.encode_unchecked(["+new:"])[0]
    processor = TrieLogitsProcessor(trie, escape_tokens=marker, max_new_key_tokens=3)
    vocab = key_tokenizer.vocab_size
    blank, breaks, marked = key_tokenizer.free_text_stops()
    word, newline = key_tokenizer.encode_unchecked(["pottery"])[0][0], key_tokenizer.encode_unchecked(["\n"])[0][-1]
    assert newline in set(breaks.tolist()) and newline in set(blank.tolist())
    processor(torch.tensor([[5]]), torch.zeros(1, vocab))
    never = set(marked.tolist()) | {marker[0]}
    assert key_tokenizer.encode_unchecked(["+"])[0][0] in never
    # The first token of a new key: anything but a blank one, EOS (an empty key) or the marker's (a loop).
    first = allowed_ids(processor(torch.tensor([[5, *marker]]), torch.zeros(1, vocab)))[0]
    assert first == set(range(vocab)) - set(blank.tolist()) - never - {trie.eos_token_id}
    # Then any token but the marker's, a line break included ...
    second = allowed_ids(processor(torch.tensor([[5, *marker, word]]), torch.zeros(1, vocab)))[0]
    assert second == set(range(vocab)) - never and newline in second
    # ... which ends the key,
    ended = processor(torch.tensor([[5, *marker, word, newline]]), torch.zeros(1, vocab))
    assert allowed_ids(ended) == [{trie.eos_token_id}]
    # as the budget does.
    spent = processor(torch.tensor([[5, *marker, word, word, word]]), torch.zeros(1, vocab))
    assert allowed_ids(spent) == [{trie.eos_token_id}]


def test_an_excluded_key_may_not_end_but_a_longer_key_through_it_may(key_tokenizer: KeyTokenizer) -> None:
    trie = KeyTrie(key_tokenizer, ["alice", "alice smith", "paris"])
    alice = key_tokenizer.encode_key("alice")
    longer = key_tokenizer.encode_key("alice smith")
    assert longer[: len(alice)] == alice
    processor = TrieLogitsProcessor(trie, excluded=[alice])
    vocab = key_tokenizer.vocab_size
    processor(torch.tensor([[5]]), torch.zeros(1, vocab))
    at_alice = processor(torch.tensor([[5, *alice]]), torch.zeros(1, vocab))
    assert allowed_ids(at_alice) == [{longer[len(alice)]}]  # on towards "alice smith", not the end of "alice"
    free = TrieLogitsProcessor(trie)
    free(torch.tensor([[5]]), torch.zeros(1, vocab))
    assert trie.eos_token_id in allowed_ids(free(torch.tensor([[5, *alice]]), torch.zeros(1, vocab)))[0]


def test_the_numpy_processor_masks_as_the_torch_one_in_place(key_tokenizer: KeyTokenizer) -> None:
    """What llama.cpp hands over: one row's whole sequence so far (1-D ids) and its scores (1-D float32)."""
    trie = KeyTrie(key_tokenizer, ["alice", "paris"])
    alice = key_tokenizer.encode_key("alice")
    processor = NumpyTrieProcessor(TrieLogitsProcessor(trie))
    vocab = key_tokenizer.vocab_size
    prompt = np.array([5, 6], np.intc)
    scores = np.zeros(vocab, np.float32)
    first = processor(prompt, scores)
    assert first.shape == (vocab,) and np.isfinite(first).sum() == 2
    assert set(np.flatnonzero(np.isfinite(first))) == {alice[0], key_tokenizer.encode_key("paris")[0]}
    assert np.isfinite(scores).sum() == 2  # masked in place: no vocabulary-sized copy per token
    then = processor(np.array([5, 6, *alice], np.intc), np.zeros(vocab, np.float32))
    assert set(np.flatnonzero(np.isfinite(then))) == {trie.eos_token_id}
    processor.reset()  # a new prompt: the prompt length is taken again
    again = processor(np.array([7], np.intc), np.zeros(vocab, np.float32))
    assert np.isfinite(again).sum() == 2


def test_a_part_of_the_trie_holding_only_excluded_keys_is_closed(key_tokenizer: KeyTokenizer) -> None:
    """k keys one decode after another: once "alice" is named, its first token leads nowhere new."""
    trie = KeyTrie(key_tokenizer, ["alice", "paris"])
    alice, paris = key_tokenizer.encode_key("alice"), key_tokenizer.encode_key("paris")
    assert alice[0] != paris[0]
    processor = TrieLogitsProcessor(trie, excluded=[alice])
    first = processor(torch.tensor([[5]]), torch.zeros(1, key_tokenizer.vocab_size))
    assert allowed_ids(first) == [{paris[0]}]
    everything = TrieLogitsProcessor(trie, excluded=[alice, paris])  # nothing left: the row is not left without a token
    assert allowed_ids(everything(torch.tensor([[5]]), torch.zeros(1, key_tokenizer.vocab_size))) == [
        {alice[0], paris[0]}
    ]
