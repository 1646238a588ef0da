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
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from engram.keys.static_trie import FlatTokens

NEW_KEY_MARKER = "+new:"  # the escape a model writes before a key that is not in the schema yet


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


class KeyTokenizer:
    def __init__(self, hf_tokenizer: Any) -> None:
        self.hf = hf_tokenizer
        self._fast = _private_backend(hf_tokenizer)
        eos = hf_tokenizer.eos_token_id
        if eos is None:
            raise ValueError("the tokenizer needs an EOS token: it terminates every key")
        self.eos_token_id = int(eos)
        self.vocab_size = len(hf_tokenizer)
        # Tokenizers are cached by this identity: same vocabulary and merges give the same key tokens.
        fingerprint = hashlib.sha1(self._fingerprint().encode()).hexdigest()[:12]
        self.identity = f"{getattr(hf_tokenizer, 'name_or_path', '')}|{self.vocab_size}|{fingerprint}"

    def _fingerprint(self) -> str:
        sample = "Key tokenisation fingerprint: person/alice ÿ 🙂 0123"
        return ",".join(map(str, self.encode_unchecked([sample])[0]))

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
        encoded = self.encode_unchecked(keys)
        decoded = self.decode_many(encoded)
        accepted: list[str] = []
        tokens: list[list[int]] = []
        rejected: list[str] = []
        for key, ids, text in zip(keys, encoded, decoded, strict=True):
            if ids and text == key and not key.startswith(NEW_KEY_MARKER) and self.eos_token_id not in ids:
                accepted.append(key)
                tokens.append(ids)
            else:
                rejected.append(key)
        return accepted, tokens, rejected

    def encode_flat(self, keys: Sequence[str], chunk: int = 65_536) -> tuple[list[str], FlatTokens, list[str]]:
        """`encode_keys` for many keys: chunk by chunk into flat arrays, so a million keys never exist as
        millions of Python token lists at once (that costs seconds and hundreds of MB)."""
        accepted: list[str] = []
        parts: list[FlatTokens] = []
        rejected: list[str] = []
        for start in range(0, len(keys), chunk):
            ok, tokens, bad = self.encode_keys(keys[start : start + chunk])
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
        if self._fast is None or getattr(self.hf, "clean_up_tokenization_spaces", False):
            accepted, tokens, _ = self.encode_keys([key])
            return tokens[0] if accepted else None
        ids: list[int] = self._fast.encode(key, add_special_tokens=False).ids
        valid = ids and not key.startswith(NEW_KEY_MARKER) and self.eos_token_id not in ids
        return ids if valid and self._fast.decode(ids, skip_special_tokens=True) == key else None
