"""A small mutable token trie for keys added since the last merge into the static trie."""

from __future__ import annotations

from collections.abc import Sequence


class DeltaNode:
    __slots__ = ("children", "key")

    def __init__(self) -> None:
        self.children: dict[int, DeltaNode] = {}
        self.key: str | None = None


class DeltaTrie:
    def __init__(self) -> None:
        self.root = DeltaNode()
        self.size = 0
        self.max_tokens = 0  # an upper bound on key length in tokens (not lowered by removals)

    def insert(self, key: str, token_ids: Sequence[int]) -> bool:
        node = self.root
        for token in token_ids:
            node = node.children.setdefault(token, DeltaNode())
        if node.key is not None:
            return False
        node.key = key
        self.size += 1
        self.max_tokens = max(self.max_tokens, len(token_ids))
        return True

    def remove(self, token_ids: Sequence[int]) -> bool:
        path = [self.root]
        for token in token_ids:
            child = path[-1].children.get(token)
            if child is None:
                return False
            path.append(child)
        if path[-1].key is None:
            return False
        path[-1].key = None
        self.size -= 1
        for parent, token, node in zip(reversed(path[:-1]), reversed(token_ids), reversed(path[1:]), strict=True):
            if node.children or node.key is not None:
                break
            del parent.children[token]
        return True

    def find(self, token_ids: Sequence[int]) -> DeltaNode | None:
        node: DeltaNode | None = self.root
        for token in token_ids:
            if node is None:
                return None
            node = node.children.get(token)
        return node

    def items(self) -> list[tuple[str, list[int]]]:
        """Every key with its tokens, depth first."""
        found: list[tuple[str, list[int]]] = []
        stack: list[tuple[DeltaNode, list[int]]] = [(self.root, [])]
        while stack:
            node, tokens = stack.pop()
            if node.key is not None:
                found.append((node.key, tokens))
            stack.extend((child, [*tokens, token]) for token, child in node.children.items())
        return found
