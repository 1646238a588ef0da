"""How a key is tokenised: exactly as the model emits it right after the prompt.

A key is encoded on its own, with no special tokens and no leading space (`encode(key)`). Decoding those tokens
must give the key back byte for byte, otherwise the key is rejected (e.g. a tokenizer that normalises case or
maps characters to `<unk>`): the trie holds only token paths that decode to a key.

Leading space. Byte-level BPE (GPT-2, Llama 3, Qwen) merges a space into the next word's token (" alice" is one
token, "alice" another), so a key must begin a fresh pre-token in the generated text: prompts therefore end
with a newline or a separator such as "Key:" followed by nothing, never with a trailing space, and the key's
first token is its standalone first token. SentencePiece tokenizers (Llama 2, Mistral) add their "▁" word
prefix to the first token and drop it when decoding, which is the same "key starts a word" convention.
Generation ends with the tokenizer's EOS token, which therefore terminates every key.

Speed. Tokenising a million keys directly takes 30-40 s on two cores, nearly all of it in the tokenizer's own
pre-tokenizer and BPE merges (`pre_tokenize_str` alone costs as much per key as `encode`). Keys repeat words,
so `ChunkCache` cuts keys into chunks with a cheap regex ("pottery", "/class", " with", " sister"), tokenises
each distinct chunk once and assembles keys from cached chunks: exact wherever every cut is a pre-token
boundary and decoding is a concatenation, which holds for byte-level BPE (GPT-2, Llama 3, Qwen pre-tokenizer
regexes) and is checked against direct encoding on probe strings at startup and on a sample of every batch; any mismatch
switches the cache off for good. Keys it cannot vouch for (added-token text, chunks that do not round-trip on
their own) are encoded directly.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from collections.abc import Iterable, Sequence
from itertools import accumulate, chain
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engram.concept_keys.static_trie import FlatTokens

NEW_KEY_MARKER = "+new:"  # the escape a model writes before a key that is not in the schema yet
log = logging.getLogger(__name__)


class InvalidKey(ValueError):
    """A key that cannot be held: empty, reserved, or not reproduced by its own tokens."""


def _private_backend(hf_tokenizer: Any) -> Any:
    """A copy of a fast tokenizer's Rust backend, without padding or truncation.

    The transformers wrapper switches padding on the shared backend when it pads a batch (Outlines does, for
    every prompt), which would pad keys with EOS tokens; a private copy is immune to that.
    """
    backend = getattr(hf_tokenizer, "backend_tokenizer", None)
    if backend is None or not hasattr(backend, "encode_batch_fast"):
        return None
    private = type(backend).from_str(backend.to_str())
    private.no_padding()
    private.no_truncation()
    return private


_PROBE_ALPHABET = "abcXYZ éüßЖж中文🙂 0123456789 '/-_.,:;!?()\t\n   ʼ\u0301"
_PROBE_WORDS = ["person", " alice", "'s", "'ll", " 2024", "/", "  ", " ", "ünï", "🙂", "a-b", "x.y", "\n", "SELF"]


def probe_keys(count: int = 300, seed: int = 0) -> list[str]:
    """Strings that exercise pre-tokenisation: words with spaces, digits, contractions, unicode, spacing runs."""
    rng = random.Random(seed)
    probes = []
    for _ in range(count):
        if rng.random() < 0.5:
            probes.append("".join(rng.choices(_PROBE_ALPHABET, k=rng.randint(1, 24))))
        else:
            probes.append("".join(rng.choices(_PROBE_WORDS, k=rng.randint(1, 6))))
    return probes


# Where a key is cut into chunks: before a single space between two non-spaces, and between a letter and an
# ASCII punctuation or symbol character. Pre-tokenizer regexes of byte-level BPE (GPT-2, Llama 3, Qwen) never
# match across these positions; other tokenizers are checked (`KeyTokenizer._agrees`). The right-hand side is
# ASCII on purpose: Python's Unicode tables are older than the tokenizer's, and a letter Python does not know
# yet must not count as punctuation (Python's \s is a superset of theirs, which only removes cuts).
_CUTS = re.compile(r"(?<=\S)(?= \S)|(?<=[^\W\d_])(?=[!-/:-@\[-`{-~])")


class ChunkCache:
    """Key tokens assembled from cached tokens of chunks (see the module docstring and `_CUTS`).

    `tokens[c]` holds the tokens of chunk `c`; None marks a chunk the cache does not vouch for (it does not
    round-trip alone or holds added-token text), whose keys are then encoded directly.
    """

    MAX_ENTRIES = 2_000_000  # cleared past this (inserted keys bring new chunks for ever)

    def __init__(self, backend: Any, special_texts: Sequence[str]) -> None:
        self._backend = backend
        self._special = [t for t in special_texts if t]
        # Added-token text is split out before pre-tokenisation: a key holding any is never vouched for.
        self._special_re = re.compile("|".join(map(re.escape, sorted(self._special, key=len, reverse=True))))
        self.index: dict[str, int] = {}  # chunk -> its number
        self._tokens: list[int] = []  # every chunk's tokens, concatenated
        self._offsets: list[int] = [0]
        self._vouched: list[bool] = []
        self._arrays: tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.bool_]] | None = None

    def __len__(self) -> int:
        return len(self.index)

    @staticmethod
    def chunks(key: str) -> list[str]:
        return _CUTS.split(key)

    def _fill(self, missing: list[str]) -> None:
        if len(self.index) + len(missing) > self.MAX_ENTRIES:
            self.index.clear()
            self._tokens.clear()
            self._offsets[1:] = []
            self._vouched.clear()
        encoded = [e.ids for e in self._backend.encode_batch_fast(missing, add_special_tokens=False)]
        decoded = self._backend.decode_batch(encoded, skip_special_tokens=True)
        for text, ids, back in zip(missing, encoded, decoded, strict=True):
            self.index[text] = len(self._vouched)
            self._vouched.append(bool(ids) and back == text)
            self._tokens += ids
            self._offsets.append(len(self._tokens))
        self._arrays = None

    def _numbered(self, chunks: Iterable[str]) -> NDArray[np.int64]:
        flat = list(chunks)
        missing = set(flat).difference(self.index)
        if missing:
            self._fill(sorted(missing))
        numbers: NDArray[np.int64] = np.fromiter(map(self.index.__getitem__, flat), np.int64, count=len(flat))
        return numbers

    def assemble_flat(self, keys: Sequence[str]) -> tuple[FlatTokens, NDArray[np.bool_]]:
        """All keys' tokens from the cache, and whether the cache vouches for each key (where it does not, the
        key's run is empty and the key must be encoded directly). Vectorised: no Python list per key."""
        split = list(map(_CUTS.split, keys))
        counts = np.fromiter(map(len, split), np.int64, count=len(split))
        numbers = self._numbered(chain.from_iterable(split))
        if self._arrays is None:
            self._arrays = (
                np.array(self._tokens, np.int32),
                np.array(self._offsets, np.int64),
                np.array(self._vouched, np.bool_),
            )
        tokens, offsets, vouched = self._arrays
        starts = np.zeros(len(keys), np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        key_vouched = np.logical_and.reduceat(vouched[numbers], starts) if len(keys) else np.zeros(0, np.bool_)
        if self._special:
            search = self._special_re.search
            key_vouched &= np.fromiter((search(k) is None for k in keys), np.bool_, count=len(keys))
        keep = np.repeat(key_vouched, counts)  # chunks of vouched keys
        numbers = numbers[keep]
        sizes = offsets[numbers + 1] - offsets[numbers]
        lengths = np.zeros(len(keys), np.int64)
        lengths[key_vouched] = self._lengths(sizes, counts[key_vouched])
        ends = np.cumsum(sizes)
        within = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - sizes, sizes)
        flat = tokens[np.repeat(offsets[numbers], sizes) + within]
        return FlatTokens(flat, lengths), key_vouched

    @staticmethod
    def _lengths(sizes: NDArray[np.int64], counts: NDArray[np.int64]) -> NDArray[np.int64]:
        """Sum of each consecutive run of `counts` chunk sizes."""
        if not len(counts):
            return np.zeros(0, np.int64)
        totals = np.concatenate([np.zeros(1, np.int64), np.cumsum(sizes)])
        bounds = np.concatenate([np.zeros(1, np.int64), np.cumsum(counts)])
        lengths: NDArray[np.int64] = totals[bounds[1:]] - totals[bounds[:-1]]
        return lengths

    def assemble_one(self, key: str) -> list[int] | None:
        """One key's tokens from the cache, without touching numpy; None when a chunk is new (or not vouched
        for): encoding that one key directly is cheaper than encoding and decoding each new chunk."""
        if self._special and self._special_re.search(key):
            return None
        ids: list[int] = []
        index, tokens, offsets, vouched = self.index, self._tokens, self._offsets, self._vouched
        for chunk in _CUTS.split(key):
            number = index.get(chunk)
            if number is None or not vouched[number]:
                return None
            ids += tokens[offsets[number] : offsets[number + 1]]
        return ids or None

    def assemble(self, keys: Sequence[str]) -> list[list[int] | None]:
        """Each key's tokens from the cache, or None where the key must be encoded directly."""
        tokens, vouched = self.assemble_flat(keys)
        return [run if ok else None for run, ok in zip(tokens.split(), vouched.tolist(), strict=True)]


class KeyTokenizer:
    SAMPLE = 32  # keys of each batch checked against direct encoding

    def __init__(self, hf_tokenizer: Any) -> None:
        self.hf = hf_tokenizer
        self._fast = _private_backend(hf_tokenizer)
        self._rng = random.Random(0)
        self.cache = self._chunk_cache()
        eos = hf_tokenizer.eos_token_id
        if eos is None:
            raise ValueError("the tokenizer needs an EOS token: it terminates every key")
        self.eos_token_id = int(eos)
        self.vocab_size = len(hf_tokenizer)
        self._stops: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None = None
        # Tokenizers are cached by this identity: same vocabulary and merges give the same key tokens.
        fingerprint = hashlib.sha1(self._fingerprint().encode()).hexdigest()[:12]
        self.identity = f"{getattr(hf_tokenizer, 'name_or_path', '')}|{self.vocab_size}|{fingerprint}"

    def _chunk_cache(self) -> ChunkCache | None:
        """The chunk cache when this tokenizer composes keys from chunks exactly on the probes, else None."""
        if self._fast is None or getattr(self.hf, "clean_up_tokenization_spaces", False):
            return None
        specials = [t.content for t in self._fast.get_added_tokens_decoder().values()]
        if any(" " in t for t in specials):
            return None  # an added token could span chunks
        cache = ChunkCache(self._fast, specials)
        return cache if self._agrees(cache, probe_keys()) else None

    def _direct(self, keys: Sequence[str]) -> tuple[list[list[int]], list[str]]:
        if self._fast is not None:
            encoded = [e.ids for e in self._fast.encode_batch_fast(list(keys), add_special_tokens=False)]
        else:
            encoded = [list(self.hf.encode(k, add_special_tokens=False)) for k in keys]
        return encoded, self.decode_many(encoded)

    def _agrees(self, cache: ChunkCache, keys: Sequence[str]) -> bool:
        """The cache gives direct encoding's tokens wherever it vouches for a key, its chunks end where the
        tokenizer's own pre-tokenizer ends a pre-token, and the key round-trips exactly when direct's does."""
        assembled = cache.assemble(keys)
        encoded, decoded = self._direct(keys)
        pre_tokenizer = self._fast.pre_tokenizer if self._fast is not None else None
        for key, ids, direct, text in zip(keys, assembled, encoded, decoded, strict=True):
            if ids is None:
                continue
            if ids != direct or text != key:
                return False
            if pre_tokenizer is not None:
                ends = {end for _, (_, end) in pre_tokenizer.pre_tokenize_str(key)}
                starts = list(accumulate(len(chunk) for chunk in cache.chunks(key)))[:-1]
                if any(start not in ends for start in starts):
                    return False
        return True

    def _fingerprint(self) -> str:
        sample = "Key tokenisation fingerprint: person/alice ÿ 🙂 0123"
        return ",".join(map(str, self.encode_unchecked([sample])[0]))

    def free_text_stops(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """(blank, line_break, marker): tokens that decode to whitespace only, tokens whose text holds a line break,
        and tokens whose text holds the new-key marker's first character.

        A key written after the new-key escape is one line: it may not start blank, a line break ends it (a base
        model otherwise goes on with another line, often the escape again), and it never holds the marker (Gemma 3
        270M copied the prompt's "write +new: followed by a short new key"). Decoded once per tokenizer (a 262k
        vocabulary: about a second)."""
        if self._stops is None:
            texts = self.decode_many([[token] for token in range(self.vocab_size)])
            blank = np.array([i for i, t in enumerate(texts) if not t.strip()], np.int64)
            breaks = np.array([i for i, t in enumerate(texts) if "\n" in t or "\r" in t], np.int64)
            marker = np.array([i for i, t in enumerate(texts) if NEW_KEY_MARKER[0] in t], np.int64)
            self._stops = (blank, breaks, marker)
        return self._stops

    def encode_unchecked(self, keys: Sequence[str]) -> list[list[int]]:
        if self._fast is not None:
            return [e.ids for e in self._fast.encode_batch_fast(list(keys), add_special_tokens=False)]
        return [list(self.hf.encode(k, add_special_tokens=False)) for k in keys]

    def decode_many(self, token_ids: Sequence[Sequence[int]]) -> list[str]:
        """Decoded as Outlines decodes generations (skipping special tokens, with the tokenizer's clean-up)."""
        if self._fast is not None and not getattr(self.hf, "clean_up_tokenization_spaces", False):
            return list(self._fast.decode_batch([list(t) for t in token_ids], skip_special_tokens=True))
        return [str(t) for t in self.hf.batch_decode([list(t) for t in token_ids], skip_special_tokens=True)]

    def encode_keys(self, keys: Sequence[str]) -> tuple[list[str], list[list[int]], list[str]]:
        """(accepted keys, their tokens, rejected keys): a key is accepted when its tokens decode to it."""
        encoded, decoded = self._encode_checked(keys)
        accepted: list[str] = []
        tokens: list[list[int]] = []
        rejected: list[str] = []
        for key, ids, text in zip(keys, encoded, decoded, strict=True):
            round_trip = text is None or text == key  # None: the cache vouched for it
            if ids and round_trip and not key.startswith(NEW_KEY_MARKER) and self.eos_token_id not in ids:
                accepted.append(key)
                tokens.append(ids)
            else:
                rejected.append(key)
        return accepted, tokens, rejected

    def _checked_cache(self, keys: Sequence[str]) -> ChunkCache | None:
        """The chunk cache, once a sample of `keys` agrees with direct encoding (None: encode directly)."""
        cache = self.cache
        if cache is None or not keys:
            return None
        if len(keys) > self.SAMPLE and not self._agrees(cache, self._rng.sample(list(keys), self.SAMPLE)):
            log.warning("key tokenizer %s: chunk cache disagrees with direct encoding; switched off", self.hf)
            self.cache = None
        return self.cache

    def _encode_checked(self, keys: Sequence[str]) -> tuple[list[list[int]], list[str | None]]:
        """Each key's tokens and their decoding (None where the cache vouched that they decode to the key)."""
        cache = self._checked_cache(keys)
        if cache is None:
            direct, texts = self._direct(keys)
            return direct, list[str | None](texts)
        assembled = cache.assemble(keys)
        fallback = [i for i, ids in enumerate(assembled) if ids is None]
        encoded_back, decoded_back = self._direct([keys[i] for i in fallback]) if fallback else ([], [])
        vouched: list[str | None] = [None] * len(keys)
        for i, ids, text in zip(fallback, encoded_back, decoded_back, strict=True):
            assembled[i] = ids
            vouched[i] = text
        return [ids if ids is not None else [] for ids in assembled], vouched

    def encode_flat(self, keys: Sequence[str], chunk: int = 65_536) -> tuple[list[str], FlatTokens, list[str]]:
        """`encode_keys` for many keys: chunk by chunk into flat arrays, so a million keys never exist as
        millions of Python token lists at once (that costs seconds and hundreds of MB)."""
        accepted: list[str] = []
        parts: list[FlatTokens] = []
        rejected: list[str] = []
        for start in range(0, len(keys), chunk):
            batch = keys[start : start + chunk]
            cache = self._checked_cache(batch)
            if cache is None:
                ok, tokens, bad = self.encode_keys(batch)
                accepted += ok
                rejected += bad
                parts.append(FlatTokens.of(tokens))
                continue
            flat, vouched = cache.assemble_flat(batch)
            marked = np.fromiter((k.startswith(NEW_KEY_MARKER) for k in batch), np.bool_, count=len(batch))
            with_eos = np.zeros(len(batch), np.bool_)
            eos_at = np.flatnonzero(flat.flat == self.eos_token_id)
            with_eos[np.searchsorted(np.cumsum(flat.lengths), eos_at, side="right")] = True
            keep = vouched & ~marked & ~with_eos
            accepted += [batch[i] for i in np.flatnonzero(keep).tolist()]
            rejected += [batch[i] for i in np.flatnonzero(vouched & ~keep).tolist()]
            parts.append(FlatTokens(flat.flat[np.repeat(keep, flat.lengths)], flat.lengths[keep]))
            ok, tokens, bad = self.encode_keys([batch[i] for i in np.flatnonzero(~vouched).tolist()])
            accepted += ok
            rejected += bad
            parts.append(FlatTokens.of(tokens))
        return accepted, FlatTokens.concat(parts), rejected

    def encode_key(self, key: str) -> list[int]:
        """The tokens of one key (InvalidKey when it cannot be held)."""
        ids = self.key_tokens(key)
        if ids is None:
            raise InvalidKey(f"key {key!r} is empty, reserved or not reproduced by its tokens")
        return ids

    def key_tokens(self, key: str) -> list[int] | None:
        """The tokens of one key, or None when it cannot be held (the single-key fast path)."""
        if key.startswith(NEW_KEY_MARKER):
            return None
        if self.cache is not None:
            ids = self.cache.assemble_one(key)
            if ids is not None:
                return ids if self.eos_token_id not in ids else None
        if self._fast is None or getattr(self.hf, "clean_up_tokenization_spaces", False):
            accepted, tokens, _ = self.encode_keys([key])
            return tokens[0] if accepted else None
        ids = self._fast.encode(key, add_special_tokens=False).ids
        valid = ids and self.eos_token_id not in ids
        return ids if valid and self._fast.decode(ids, skip_special_tokens=True) == key else None
