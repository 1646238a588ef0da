"""Hypothesis strategies for key schemas, and a walk of every key a trie lets a model write."""

from __future__ import annotations

from hypothesis import strategies as st

from engram.concept_keys.tokenization import NEW_KEY_MARKER
from engram.concept_keys.trie import KeyTrie

# Unicode text, ASCII words with shared stems, and category-style keys.
_WORDS = st.sampled_from(["person", "per", "alice", "al", "paris", "art", "a", "ab", "abc", "/", " ", "é", "🙂"])
_KEY = st.one_of(
    st.text(min_size=1, max_size=10),
    st.lists(_WORDS, min_size=1, max_size=4).map("".join),
).filter(lambda k: not k.startswith(NEW_KEY_MARKER))


@st.composite
def schemas(draw: st.DrawFn, max_size: int = 8) -> list[str]:
    """Distinct keys, often with some keys that are prefixes of others."""
    keys = draw(st.lists(_KEY, min_size=0, max_size=max_size, unique=True))
    prefixes = [k[: draw(st.integers(1, len(k)))] for k in keys if draw(st.booleans())]
    return list(dict.fromkeys(keys + prefixes))


def writable_keys(trie: KeyTrie) -> set[str]:
    """Every string the trie lets a model write before EOS (depth-first over allowed tokens)."""
    found: set[str] = set()
    stack = [(trie.root(), list[int]())]
    while stack:
        state, tokens = stack.pop()
        for token in trie.allowed(state).tolist():
            if token == trie.eos_token_id:
                found.add(trie.tokenizer.decode_many([tokens])[0])
                continue
            following = trie.step(state, token)
            assert following is not None, "an allowed token leads nowhere"
            stack.append((following, [*tokens, token]))
    return found
