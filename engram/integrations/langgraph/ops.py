"""The store's operations, written once for the sync and the async client: each is a generator that yields the
client calls it needs, `(method, keyword arguments)`, and is sent their results (store.py drives it with
`EngramClient` or `AsyncEngramClient`). `("sleep", {"seconds": s})` asks the driver to wait.

- get: the item's source, by its id in the metadata (`export`: the ingest format, so text, metadata and times).
- put: `ingest` of a one-turn conversation session per item (its key the turn id), after `forget` of the value it
  replaces; putting the value an item already has writes nothing. The batch then waits for the jobs, so what it put
  is there for the next read. `index` cannot skip extraction: Engram has no write that does (docs/integrations.md).
- delete (a put of None): `forget` of the item's source, and with it what only it proved.
- search with a query: `recall` in the namespace's scope; each recalled memory is credited to the items whose turns
  prove it, best first, and listed in the item's value under "_engram". Without a query: `export`, page by page.
- list_namespaces: the sources this store wrote, user by user (`users`, `sources`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from engram.integrations.langgraph.namespaces import RECORD_ID, Namespaces, Scope, check_key, item_id, source_ref
from engram.integrations.langgraph.values import (
    ITEM_ID,
    KEY,
    MARKER,
    decode,
    encode,
    matches,
    server_filter,
)

T = TypeVar("T")
Call = tuple[str, dict[str, Any]]
Steps = Generator[Call, Any, T]
EXPORT_PAGE = 200  # the export's most sources per page
SOURCES_PAGE = 100  # a connection's most nodes per page
RECALL_MAX = 200  # recall's most items


class EngramError(RuntimeError):
    """Engram refused a request (its InvalidInput or OverBudget answer), or a write job failed."""


@dataclass(frozen=True)
class Stored:
    """An item as exported, with the text Engram holds for it."""

    item: Item
    text: str


class Operations:
    """The store's operations for one prefix, layout and choice of text fields."""

    def __init__(self, namespaces: Namespaces, text_fields: tuple[str, ...], job_timeout: float) -> None:
        self.namespaces = namespaces
        self.text_fields = text_fields
        self.job_timeout = job_timeout

    def batch(self, ops: Iterable[Op]) -> Steps[list[Result]]:
        """LangGraph's batch: reads in order against the memory as it was, then the writes (the last put of an
        item wins), then a wait for their jobs. Every op is checked before anything is sent."""
        ops = list(ops)
        for op in ops:
            self._check(op)
        results: list[Result] = [None] * len(ops)
        writes: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for index, op in enumerate(ops):
            if isinstance(op, GetOp):
                found = yield from self.get(op.namespace, op.key)
                results[index] = found.item if found else None
            elif isinstance(op, SearchOp):
                results[index] = yield from self.search(op)
            elif isinstance(op, ListNamespacesOp):
                results[index] = yield from self.list_namespaces(op)
            else:
                writes.pop((op.namespace, op.key), None)
                writes[(op.namespace, op.key)] = op
        jobs = []
        for put in writes.values():
            job = yield from self.put(put)
            if job is not None:
                jobs.append(job)
        yield from self.wait(jobs)
        return results

    def _check(self, op: Op) -> None:
        validate_op_namespace(op)
        if isinstance(op, GetOp | PutOp):
            self.namespaces.item_scope(op.namespace)
            check_key(op.key)
            if isinstance(op, PutOp) and op.value is not None:
                encode(op.value, self.text_fields)
        elif isinstance(op, SearchOp):
            scope = self.namespaces.search_scope(op.namespace_prefix)
            if op.query is not None and scope.user is None:
                raise InvalidNamespaceError(
                    f"A search with a query names the user ({op.namespace_prefix!r} does not): Engram recalls from "
                    "one user's memory at a time."
                )
        elif isinstance(op, ListNamespacesOp):
            for condition in op.match_conditions or ():
                if condition.match_type not in ("prefix", "suffix"):
                    raise ValueError(f"match type {condition.match_type!r}: 'prefix' or 'suffix'")
        else:
            raise TypeError(f"not a store operation: {op!r}")

    def get(self, namespace: tuple[str, ...], key: str) -> Steps[Stored | None]:
        scope = self.namespaces.item_scope(namespace)
        metadata = {MARKER: True, ITEM_ID: item_id(namespace, key)}
        page = (yield ("export", {"user": scope.user, "metadata": metadata, "first": 1})).export
        found = [s for s in self.exported(page.jsonl) if s.item.namespace == namespace and s.item.key == key]
        return found[0] if found else None

    def put(self, op: PutOp) -> Steps[str | None]:
        """Writes one item (or forgets it: a value of None); the id of the job to wait for, if one was queued."""
        scope = self.namespaces.item_scope(op.namespace)
        if op.value is None:
            yield from self._forget(scope, source_ref(op.namespace, op.key))
            return None
        text, metadata = encode(op.value, self.text_fields)
        current = yield from self.get(op.namespace, op.key)
        if current is not None and current.item.value == dict(op.value):
            return None  # the same value again: nothing to write
        if current is not None:
            yield from self._forget(scope, source_ref(op.namespace, op.key))
        now = datetime.now(UTC)
        created = current.item.created_at if current is not None else now
        iid = item_id(op.namespace, op.key)
        record: dict[str, Any] = {
            "type": "conversation",
            "id": RECORD_ID,
            **scope.filters(),
            "metadata": {**metadata, ITEM_ID: iid, KEY: op.key},
            "sessions": [
                {
                    "id": iid,
                    "started_at": created.isoformat(),
                    "turns": [{"speaker": scope.user, "id": op.key, "text": text, "timestamp": now.isoformat()}],
                }
            ],
        }
        job = (yield ("ingest", {"records": [record]})).ingest
        if job.typename__ != "Job":
            raise EngramError(f"Engram refused the item {op.namespace!r}/{op.key!r}: {_problems(job)}")
        return str(job.id)

    def _forget(self, scope: Scope, ref: str) -> Steps[None]:
        gone = (yield ("forget", {"source_ids": [ref], "user": scope.user})).forget
        if gone.typename__ != "Forgotten":
            raise EngramError(f"Engram refused to forget {ref!r}: {_problems(gone)}")

    def wait(self, jobs: list[str]) -> Steps[None]:
        """Until every job has written (polling, 50 ms doubling to 500 ms); a failed or overdue job raises."""
        deadline, delay, pending = time.monotonic() + self.job_timeout, 0.05, list(jobs)
        while pending:
            for job_id in list(pending):
                job = (yield ("job", {"id": job_id})).job
                state = str(getattr(job, "state", "FAILED"))
                if state.endswith("SUCCEEDED"):
                    pending.remove(job_id)
                elif state.endswith("FAILED"):
                    raise EngramError(f"Engram's write job {job_id} failed: {getattr(job, 'error', '') or state}")
            if pending:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"Engram's write jobs {pending} still running after {self.job_timeout} s")
                yield ("sleep", {"seconds": delay})
                delay = min(delay * 2, 0.5)

    def search(self, op: SearchOp) -> Steps[list[SearchItem]]:
        if op.query is not None:
            return (yield from self.recall(op))
        scope = self.namespaces.search_scope(op.namespace_prefix)
        users = [scope.user] if scope.user is not None else (yield from self._users())
        wanted, found = op.offset + op.limit, list[Item]()
        metadata = {MARKER: True, **server_filter(op.filter, self.text_fields)}
        for user in users:
            filters = Scope(user, scope.session, scope.agent).filters()
            after = None
            while len(found) < wanted:
                arguments = {**filters, "metadata": metadata, "first": EXPORT_PAGE, "after": after}
                page = (yield ("export", arguments)).export
                found += [
                    s.item
                    for s in self.exported(page.jsonl)
                    if _under(s.item.namespace, op.namespace_prefix) and matches(s.item.value, op.filter)
                ]
                if page.end_cursor is None:
                    break
                after = page.end_cursor
        return [_search_item(item, None) for item in found[op.offset : wanted]]

    def recall(self, op: SearchOp) -> Steps[list[SearchItem]]:
        """Engram's recall in the prefix's scope, credited to the items that prove what it recalls."""
        scope = self.namespaces.search_scope(op.namespace_prefix)
        wanted = op.offset + op.limit
        arguments = {
            "query": op.query,
            **scope.filters(),
            "metadata": {MARKER: True, **server_filter(op.filter, self.text_fields)},
            "limit": min(RECALL_MAX, max(25, 3 * wanted)),
        }
        recall = (yield ("recall", arguments)).recall
        if recall.typename__ != "Recall":
            raise EngramError(f"Engram refused the search: {_problems(recall)}")
        by_key: dict[str, list[Stored]] = {}
        credited: dict[tuple[tuple[str, ...], str], tuple[Item, float, list[dict[str, Any]]]] = {}
        for hit in recall.items:
            for episode in hit.provenance:
                if episode.external_id not in by_key:
                    by_key[episode.external_id] = yield from self._with_key(scope, episode.external_id)
                for stored in _proving(by_key[episode.external_id], episode):
                    item = stored.item
                    if not _under(item.namespace, op.namespace_prefix) or not matches(item.value, op.filter):
                        continue
                    entry = credited.setdefault((item.namespace, item.key), (item, _score(hit), []))
                    if all(h["id"] != hit.id for h in entry[2]):
                        entry[2].append(_recalled(hit))
            if len(credited) >= wanted:
                break
        ranked = list(credited.values())[op.offset : wanted]
        return [_search_item(item, score, {"_engram": {"recalled": hits}}) for item, score, hits in ranked]

    def _with_key(self, scope: Scope, key: str) -> Steps[list[Stored]]:
        metadata = {MARKER: True, KEY: key}
        page = (yield ("export", {**scope.filters(), "metadata": metadata, "first": EXPORT_PAGE})).export
        return list(self.exported(page.jsonl))

    def _users(self) -> Steps[list[str]]:
        return [u.user for u in (yield ("users", {})).users]

    def list_namespaces(self, op: ListNamespacesOp) -> Steps[list[tuple[str, ...]]]:
        conditions = op.match_conditions or ()
        user = _named_user(conditions, len(self.namespaces.prefix))
        users = [user] if user is not None else (yield from self._users())
        namespaces: set[tuple[str, ...]] = set()
        for name in users:
            after = None
            while True:
                arguments = {"user": name, "metadata": {MARKER: True}, "first": SOURCES_PAGE, "after": after}
                page = (yield ("sources", arguments)).sources
                for edge in page.edges:
                    if edge.node.external_id.startswith(RECORD_ID + "/"):
                        namespaces.add(self.namespaces.namespace(name, edge.node.session, edge.node.agent))
                if not page.page_info.has_next_page:
                    break
                after = page.page_info.end_cursor
        kept = {ns[: op.max_depth] if op.max_depth is not None else ns for ns in namespaces if _meets(ns, conditions)}
        return sorted(kept)[op.offset : op.offset + op.limit]

    def exported(self, jsonl: str) -> Iterator[Stored]:
        """The items in an export page (JSONL in the ingest format): the turns this store wrote."""
        for line in jsonl.splitlines():
            record = json.loads(line) if line.strip() else {}
            if record.get("type") != "conversation" or record.get("id") != RECORD_ID or not record.get("user"):
                continue
            namespace = self.namespaces.namespace(record["user"], record.get("session"), record.get("agent"))
            for session in record.get("sessions", []):
                for turn in session.get("turns", []):
                    metadata = {**record.get("metadata", {}), **turn.get("metadata", {})}
                    if metadata.get(MARKER) is not True:
                        continue
                    updated = _when(turn.get("timestamp") or session.get("started_at"))
                    item = Item(
                        value=decode(turn["text"], metadata),
                        key=str(turn.get("id", "")),
                        namespace=namespace,
                        created_at=_when(session.get("started_at")) or updated or datetime.now(UTC),
                        updated_at=updated or datetime.now(UTC),
                    )
                    yield Stored(item, turn["text"])


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _under(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    return namespace[: len(prefix)] == prefix


def _proving(candidates: list[Stored], episode: Any) -> list[Stored]:
    """The items an episode of a recalled memory is: its key's items whose text it holds (Engram's episode text is
    the speaker and the turn's text), narrowed to the one written then where several hold it."""
    holding = [s for s in candidates if episode.text == s.text or episode.text.endswith(": " + s.text)]
    at = [s for s in holding if episode.occurred_at is not None and s.item.updated_at == episode.occurred_at]
    return at or holding


def _score(hit: Any) -> float:
    """The item's score: the calibrated relevance (0-1, docs/relevance.md) where recall gives one, else its score."""
    return float(hit.relevance if hit.relevance is not None else hit.score)


def _recalled(hit: Any) -> dict[str, Any]:
    """A recalled memory as JSON, with its provenance in the app's ids."""

    def iso(value: datetime | None) -> str | None:
        return value.isoformat() if value is not None else None

    return {
        "id": hit.id,
        "kind": hit.kind,
        "text": hit.text,
        "score": hit.score,
        "relevance": hit.relevance,
        "valid_from": iso(hit.valid_from),
        "valid_to": iso(hit.valid_to),
        "superseded_by": hit.superseded_by,
        "found_by": list(hit.found_by),
        "provenance": [
            {"key": p.external_id, "episode_id": p.episode_id, "speaker": p.speaker, "text": p.text}
            | {"occurred_at": iso(p.occurred_at)}
            for p in hit.provenance
        ],
    }


def _search_item(item: Item, score: float | None, extra: dict[str, Any] | None = None) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value={**item.value, **(extra or {})},
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=score,
    )


def _named_user(conditions: Iterable[MatchCondition], position: int) -> str | None:
    """The user a prefix condition names (so only that user's sources are read), if one does."""
    for condition in conditions:
        if condition.match_type == "prefix" and len(condition.path) > position and condition.path[position] != "*":
            return str(condition.path[position])
    return None


def _meets(namespace: tuple[str, ...], conditions: Iterable[MatchCondition]) -> bool:
    for condition in conditions:
        path = tuple(condition.path)
        labels = namespace if condition.match_type == "prefix" else namespace[::-1]
        wanted = path if condition.match_type == "prefix" else path[::-1]
        if len(labels) < len(wanted) or any(w != "*" and w != label for w, label in zip(wanted, labels, strict=False)):
            return False
    return True


def _problems(answer: Any) -> str:
    problems = getattr(answer, "problems", None)
    message = str(getattr(answer, "message", answer))
    return message + (": " + "; ".join(problems) if problems else "")
