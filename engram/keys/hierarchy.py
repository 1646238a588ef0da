"""A two-level schema: categories, then keys within the chosen category ("person/alice" = "person" + "alice").

Two tries: one over category names, one per category over the rest of its keys. Generation names the
category first, then continues the prompt with "category/" and names the rest inside that category's trie, so
a change in one category touches only its own trie. A key without the separator (or with an empty part) has
no category and is not held here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engram.keys.decoder import KeyChoice, KeyDecoder
from engram.keys.tokenization import KeyTokenizer
from engram.keys.trie import KeyTrie


def split_key(key: str, separator: str = "/") -> tuple[str, str] | None:
    category, found, rest = key.partition(separator)
    return (category, rest) if found and category and rest else None


class HierarchicalSchema:
    def __init__(self, tokenizer: KeyTokenizer, keys: Iterable[str] = (), separator: str = "/") -> None:
        self.tokenizer = tokenizer
        self.separator = separator
        grouped: dict[str, list[str]] = defaultdict(list)
        for key in keys:
            parts = split_key(key, separator)
            if parts:
                grouped[parts[0]].append(parts[1])
        self.members: dict[str, KeyTrie] = {c: KeyTrie(tokenizer, rest) for c, rest in grouped.items()}
        self.members = {c: t for c, t in self.members.items() if len(t)}
        self.categories = KeyTrie(tokenizer, self.members)

    def __contains__(self, key: object) -> bool:
        parts = split_key(key, self.separator) if isinstance(key, str) else None
        return parts is not None and parts[0] in self.members and parts[1] in self.members[parts[0]]

    def __len__(self) -> int:
        return sum(len(t) for t in self.members.values())

    def insert(self, key: str) -> bool:
        parts = split_key(key, self.separator)
        if parts is None:
            return False
        category, rest = parts
        members = self.members.get(category) or KeyTrie(self.tokenizer)
        added = members.insert(rest)
        if category not in self.members and len(members):
            self.categories.insert(category)
            self.members[category] = members
        return added

    def remove(self, key: str) -> bool:
        parts = split_key(key, self.separator)
        if parts is None or parts[0] not in self.members:
            return False
        category, rest = parts
        removed = self.members[category].remove(rest)
        if not len(self.members[category]):
            self.categories.remove(category)
            del self.members[category]
        return removed

    def name_keys(self, decoder: KeyDecoder, prompt: str, k: int = 1) -> list[KeyChoice]:
        """Up to k keys: the best categories by beam search, then the best keys within each, in that order."""
        found: list[KeyChoice] = []
        for category in decoder.name_keys(prompt, self.categories, min(k, len(self.categories))):
            members = self.members.get(category.key)
            if members is None:  # removed meanwhile
                continue
            prefix = category.key + self.separator
            for rest in decoder.name_keys(prompt + prefix, members, k - len(found)):
                found.append(KeyChoice(prefix + rest.key))
            if len(found) >= k:
                break
        return found
