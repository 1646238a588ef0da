"""Key generation through Outlines under the trie constraint: one key, k distinct keys, with a new-key escape.

`KeyDecoder` wraps an Outlines transformers model (`outlines.from_transformers`). Each call builds a fresh
`TrieLogitsProcessor` over the trie as it is now (no compilation: a schema change is visible to the next call).
k keys come from constrained beam search (`num_beams = num_return_sequences = k`): every beam is a different
token path, and each key has exactly one path in the trie, so the beams are different keys. Every output is
checked against the schema again before it is returned (a key removed while decoding is dropped).

An Outlines llama.cpp model (`outlines.from_llamacpp`, engram/llamacpp_model.py) works too: the processor is served
numpy arrays (`NumpyTrieProcessor`), prompts are decoded one at a time, greedy unless told otherwise (llama.cpp
samples at temperature 0.8 by default), and, with no beam search there, k keys are k decodes, each with the keys
named before closed (`excluded`): the best key, then the best of the others, not beam search's k best paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import outlines

from engram.concept_keys.processor import NumpyTrieProcessor, TrieLogitsProcessor
from engram.concept_keys.tokenization import NEW_KEY_MARKER, KeyTokenizer
from engram.concept_keys.trie import KeyTrie


@dataclass(frozen=True)
class KeyChoice:
    key: str
    new: bool = False  # True: written after the new-key escape; to be accommodated, not in the schema yet


class KeyDecoder:
    def __init__(self, model: Any, max_new_key_tokens: int = 16, **generation_kwargs: Any) -> None:
        """`model`: an Outlines transformers or llama.cpp model; `generation_kwargs` go to its generation call
        (transformers: e.g. do_sample=True; llama.cpp: e.g. temperature=1.0)."""
        self.model = model
        # llama.cpp's model hands numpy arrays; its tokenizer is the transformers one it was given (same ids).
        self._numpy = getattr(model, "tensor_library_name", "torch") == "numpy"
        self.tokenizer = KeyTokenizer(model.model.tokenizer_.hf_tokenizer if self._numpy else model.hf_tokenizer)
        self._max_new_key_tokens = max_new_key_tokens
        self._generation_kwargs = ({"temperature": 0.0} if self._numpy else {}) | generation_kwargs
        self._escape_tokens = self.tokenizer.encode_unchecked([NEW_KEY_MARKER])[0]

    def _check(self, trie: KeyTrie) -> None:
        if trie.tokenizer.identity != self.tokenizer.identity:
            raise ValueError("the trie was tokenised with another tokenizer than the model's")

    def name_key(self, prompt: str, trie: KeyTrie, allow_new: bool = False) -> KeyChoice | None:
        """The model's key for `prompt` (greedy unless sampling kwargs were given), or None if none fits."""
        choices = self.name_keys(prompt, trie, 1, allow_new)
        return choices[0] if choices else None

    def _generator(
        self, trie: KeyTrie, allow_new: bool, excluded: list[list[int]] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        escape = self._escape_tokens if allow_new else None
        processor: Any = TrieLogitsProcessor(trie, None, escape, self._max_new_key_tokens, excluded)
        # The longest key plus EOS: a key is never cut short by the budget.
        # The escape: the marker, the new key's line, its line break.
        budget = trie.max_tokens + 1 + (len(self._escape_tokens) + self._max_new_key_tokens + 1 if allow_new else 0)
        if self._numpy:
            processor = NumpyTrieProcessor(processor)
        kwargs = {"max_tokens" if self._numpy else "max_new_tokens": budget, **self._generation_kwargs}
        return outlines.Generator(self.model, processor=processor), kwargs

    def name_key_each(self, prompts: list[str], trie: KeyTrie, allow_new: bool = False) -> list[KeyChoice | None]:
        """One key per prompt, the prompts decoded side by side in one batch (rows keep their own trie states)."""
        self._check(trie)
        if not prompts or (not len(trie) and not allow_new):
            return [None] * len(prompts)
        generator, kwargs = self._generator(trie, allow_new)
        if self._numpy:  # llama.cpp decodes one prompt at a time
            texts = [str(generator(prompt, **kwargs)) for prompt in prompts]
        else:
            texts = [str(text) for text in generator.batch(prompts, **kwargs)]
        return [next(iter(self._parse([text], trie, allow_new)), None) for text in texts]

    def name_keys(self, prompt: str, trie: KeyTrie, k: int, allow_new: bool = False) -> list[KeyChoice]:
        """Up to k distinct keys, best first (fewer when the schema holds fewer)."""
        self._check(trie)
        beams = min(k, len(trie) + (1 if allow_new else 0))
        if beams <= 0:
            return []
        if self._numpy:
            return self._one_after_another(prompt, trie, beams, allow_new)
        generator, kwargs = self._generator(trie, allow_new)
        if beams > 1:
            kwargs |= {"num_beams": beams, "num_return_sequences": beams, "early_stopping": False, "do_sample": False}
        output: Any = generator(prompt, **kwargs)
        texts = [output] if isinstance(output, str) else list(output)
        return self._parse(texts, trie, allow_new)

    def _one_after_another(self, prompt: str, trie: KeyTrie, k: int, allow_new: bool) -> list[KeyChoice]:
        """k keys with no beam search: each decode closes the keys named before it."""
        named: list[KeyChoice] = []
        for _ in range(k):
            excluded = [tokens for c in named if not c.new and (tokens := self.tokenizer.key_tokens(c.key))]
            generator, kwargs = self._generator(trie, allow_new and not any(c.new for c in named), excluded)
            found = [c for c in self._parse([str(generator(prompt, **kwargs))], trie, allow_new) if c not in named]
            if not found:  # nothing left to name, or the model could only repeat itself
                break
            named += found
        return named

    def _parse(self, texts: list[str], trie: KeyTrie, allow_new: bool) -> list[KeyChoice]:
        choices: dict[KeyChoice, None] = {}
        for text in texts:
            if allow_new and text.startswith(NEW_KEY_MARKER):
                # One line, the marker never part of it (the processor already holds the model to that).
                lines = text[len(NEW_KEY_MARKER) :].splitlines()
                proposed = lines[0].split(NEW_KEY_MARKER)[0].strip() if lines else ""
                if proposed:
                    choices[KeyChoice(proposed, new=True)] = None
            elif text in trie:
                choices[KeyChoice(text)] = None
        return list(choices)
