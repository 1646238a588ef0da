"""Keeping every process's trie of a space's keys consistent: a versioned change log in Redis.

Whoever changes the keys in the graph (accommodation, removal, the ingest write stage) then appends the change
to a Redis stream `engram:keys:<space>:<kind>`, numbered by a counter in the same atomic script. A process
holding a trie polls the stream before it decodes and applies the new entries as inserts and removals (never a
rebuild). A gap in the numbers (the stream was trimmed past this reader) means a full reload from the graph;
`reconcile()` also diffs against the graph now and then, for writers that do not publish.

Loading is race-free: the log position is read first, then the graph, then the entries after that position
are applied (adds and removes are idempotent, so replaying one the graph already shows is harmless).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import redis

from engram.concept_keys.tokenization import KeyTokenizer
from engram.concept_keys.trie import KeyTrie

# INCR the version and XADD the change in one step, so entries are numbered in stream order.
_PUBLISH = """
local v = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'v', v, 'change', ARGV[1])
return v
"""

# Drop every entry and move the version on: each reader sees a gap and reloads from the graph.
_RESET = """
redis.call('DEL', KEYS[2])
return redis.call('INCR', KEYS[1])
"""


class KeyKind(StrEnum):
    CONCEPT = "concept"
    INTENT = "intent"


@dataclass(frozen=True)
class KeyChange:
    version: int
    added: list[str]
    removed: list[str]


class KeyLog:
    def __init__(self, client: redis.Redis, space: str, kind: KeyKind, max_entries: int = 100_000) -> None:
        self._client = client
        self.stream = f"engram:keys:{space}:{kind}"
        self.counter = f"{self.stream}:version"
        self._max_entries = max_entries
        self._publish = client.register_script(_PUBLISH)
        self._reset = client.register_script(_RESET)

    def publish(self, added: Sequence[str] = (), removed: Sequence[str] = ()) -> int:
        change = json.dumps({"add": list(added), "remove": list(removed)}, ensure_ascii=False)
        return int(self._publish(keys=[self.counter, self.stream], args=[change, self._max_entries]))

    def reset(self) -> int:
        """Empty the log (its entries name keys, so they hold text): every reader reloads from the graph instead.
        For forget: a removal entry would itself put the forgotten key back into Redis."""
        return int(self._reset(keys=[self.counter, self.stream]))

    def position(self) -> tuple[int, str]:
        """(version, stream id) of the latest change, read together."""
        pipe = self._client.pipeline(transaction=True)
        pipe.get(self.counter)
        pipe.xrevrange(self.stream, count=1)
        version, last = pipe.execute()
        return int(version or 0), _decode(last[0][0]) if last else "0-0"

    def since(self, stream_id: str, batch: int = 10_000) -> tuple[list[KeyChange], str, int]:
        """Changes after `stream_id` (oldest first), the id to continue from, and the latest version number."""
        pipe = self._client.pipeline(transaction=True)
        pipe.get(self.counter)
        pipe.xrange(self.stream, min=f"({stream_id}", count=batch)
        version, entries = pipe.execute()
        changes: list[KeyChange] = []
        while True:
            for entry_id, fields in entries:
                data = {_decode(k): _decode(v) for k, v in fields.items()}
                change = json.loads(data["change"])
                changes.append(KeyChange(int(data["v"]), change["add"], change["remove"]))
                stream_id = _decode(entry_id)
            if len(entries) < batch:
                return changes, stream_id, int(version or 0)
            entries = cast(list[Any], self._client.xrange(self.stream, min=f"({stream_id}", count=batch))


def _decode(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class SyncedSchema:
    """One space's keys of one kind as a trie for one tokenizer, following the change log."""

    def __init__(
        self,
        tokenizer: KeyTokenizer,
        log: KeyLog,
        load_keys: Callable[[], list[str]],
        reconcile_s: float = 300.0,
    ) -> None:
        self.log = log
        self._tokenizer = tokenizer
        self._load_keys = load_keys
        self._reconcile_s = reconcile_s
        self._lock = threading.Lock()
        self.reloads = 0
        self._trie, self.version, self._stream_id = self._load()
        self._reconciled_at = time.monotonic()

    def _load(self) -> tuple[KeyTrie, int, str]:
        version, stream_id = self.log.position()
        trie = KeyTrie(self._tokenizer, self._load_keys())
        self.reloads += 1
        return trie, version, stream_id

    def trie(self) -> KeyTrie:
        """The trie with every published change applied (one Redis round trip when nothing changed)."""
        self.refresh()
        return self._trie

    def refresh(self) -> int:
        """Apply new changes; returns how many entries were applied."""
        with self._lock:
            changes, stream_id, latest = self.log.since(self._stream_id)
            first = changes[0].version if changes else latest + 1
            # Entries we never saw were trimmed away, or Redis lost the log: start again from the graph.
            if first > self.version + 1 or latest < self.version:
                self._trie, self.version, self._stream_id = self._load()
                return len(changes)
            for change in changes:
                self._trie.insert_many(change.added)
                self._trie.remove_many(change.removed)
                self.version = change.version
            self._stream_id = stream_id
            if time.monotonic() - self._reconciled_at > self._reconcile_s:
                self._reconcile()
            return len(changes)

    def reconcile(self) -> tuple[int, int]:
        """Diff the trie against the graph and apply the difference; (inserted, removed)."""
        with self._lock:
            return self._reconcile()

    def _reconcile(self) -> tuple[int, int]:
        in_graph = set(self._load_keys())
        held = set(self._trie.keys())
        inserted = self._trie.insert_many(sorted(in_graph - held))
        removed = self._trie.remove_many(sorted(held - in_graph))
        self._reconciled_at = time.monotonic()
        return inserted, removed

    def add(self, keys: Sequence[str]) -> None:
        """Keys just written to the graph by this process: into the trie now, and into the log for the others."""
        self.log.publish(added=keys)
        self.refresh()

    def remove(self, keys: Sequence[str]) -> None:
        """Keys just deleted from the graph by this process."""
        self.log.publish(removed=keys)
        self.refresh()
