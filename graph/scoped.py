"""A memory space seen through the app's eyes: its own ids, its scope labels and its users (engram/scope.py).

Resolves the ids an app gave at ingest, lists sources and memories page by page with scope, kind, time and metadata
filters, writes a memory back out in the ingest format, and names a space's users. Every statement runs in one
memory space (`space` is the caller's, or one of its users' partitions), so no filter can reach another's memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import neo4j

from engram.scope import ScopeFilter
from graph.cypher import load

RefKind = Literal["source", "episode"]


@dataclass
class Resolved:
    """What the refs of a forget or get name: internal ids, and the refs that named nothing or too much."""

    source_ids: list[str] = field(default_factory=list)
    episode_ids: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)


@dataclass
class Page:
    total: int
    rows: list[dict[str, Any]]


class ScopedMemory:
    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    def _record(self, name: str, routing: neo4j.RoutingControl = neo4j.RoutingControl.READ, **params: Any) -> Any:
        records, _, _ = self._driver.execute_query(load(f"scope/{name}"), params, database_=self._database,
                                                   routing_=routing)  # fmt: skip
        return records

    def resolve(self, space: str, sources: Sequence[str], episodes: Sequence[str]) -> Resolved:
        """Internal ids of the sources and episodes named by internal or external ids (see resolve_refs.cypher)."""
        refs = [{"ref": r, "kind": "source"} for r in sources] + [{"ref": r, "kind": "episode"} for r in episodes]
        resolved = Resolved()
        if not refs:
            return resolved
        for row in self._record("resolve_refs", space=space, refs=refs):
            found = row["sources"] if row["kind"] == "source" else row["episodes"]
            if not found:
                resolved.not_found.append(row["ref"])
            elif row["kind"] == "episode" and len(found) > 1:
                resolved.ambiguous.append(row["ref"])
            elif row["kind"] == "source":
                resolved.source_ids.extend(found)
            else:
                resolved.episode_ids.extend(found)
        return resolved

    def matching_episodes(self, space: str, scope: ScopeFilter) -> list[str]:
        """The episodes whose scope labels match `scope` (agent, session, metadata)."""
        return list(self._record("matching_episodes", space=space, scope=scope.properties())[0]["episode_ids"])

    def sources(self, space: str, scope: ScopeFilter, kind: str | None, skip: int, limit: int) -> Page:
        row = self._record("list_sources", space=space, kind=kind, skip=skip, limit=limit, scope=scope.properties())[0]
        return Page(int(row["total"]), list(row["rows"]))

    def memories(
        self,
        space: str,
        scope: ScopeFilter,
        kinds: Sequence[str],
        since: datetime | None,
        until: datetime | None,
        include_superseded: bool,
        skip: int,
        limit: int,
    ) -> Page:
        row = self._record(
            "list_memories", space=space, kinds=list(kinds), since=since, until=until,
            include_superseded=include_superseded, skip=skip, limit=limit, scope=scope.properties(),
        )[0]  # fmt: skip
        return Page(int(row["total"]), list(row["rows"]))

    def export_page(self, space: str, scope: ScopeFilter, skip: int, limit: int) -> Page:
        """A page of sources with their matching episodes (export_sources.cypher rows)."""
        row = self._record("export_sources", space=space, skip=skip, limit=limit, scope=scope.properties())[0]
        return Page(int(row["total"]), list(row["rows"]))

    def counts(self, space: str) -> dict[str, int]:
        """How many episodes, knowledge items and concepts a memory space holds."""
        row = self._record("counts", space=space)[0]
        return {"episodes": int(row["episodes"]), "knowledge": int(row["knowledge"]), "concepts": int(row["concepts"])}

    def exists(self, space: str) -> bool:
        return bool(self._record("space_exists", space=space)[0]["exists"])

    def users(self, space: str) -> list[tuple[str, str]]:
        """(user, memory space) of every user of `space` with a memory of their own."""
        return [(r["user"], r["memory_space"]) for r in self._record("users", space=space)]


def export_records(rows: Sequence[dict[str, Any]], user: str | None) -> Iterator[dict[str, Any]]:
    """Ingest-format records (engram/formats/records.py) from export_sources rows: a conversation's sessions become
    one record again; ingesting them into an empty memory writes the same sources, episodes and ids."""
    conversations: dict[tuple[str, str], dict[str, Any]] = {}
    for source in rows:
        scope = {"user": user, "agent": source["agent"], "session": source["session"], "metadata": source["metadata"]}
        scope = {k: v for k, v in scope.items() if v not in (None, {})}
        # A conversation's sessions with different scopes (remember's sessions) stay apart: records of one id, each
        # with its own sessions and scope (engram/formats/loading.py accepts them: their sessions differ).
        scope_key = json.dumps(scope, sort_keys=True)
        episodes = source["episodes"]
        if source["kind"] == "conversation":
            record_id, _, session_id = source["external_id"].rpartition("/")
            turns = [
                _drop_empty({
                    "speaker": e["speaker"], "text": e["observation"], "timestamp": _iso(e["occurred_at"]),
                    "image_caption": e["image_caption"], "id": e["external_id"],
                    "metadata": _own(e["metadata"], source["metadata"]),
                })
                for e in episodes
            ]  # fmt: skip
            session = _drop_empty({"id": session_id, "started_at": _iso(source["created_at"]), "turns": turns})
            record = conversations.get((record_id, scope_key))
            if record is None:
                record = conversations[(record_id, scope_key)] = {
                    "type": "conversation", "id": record_id, **_drop_empty({"title": source["title"]}), **scope,
                    "sessions": [],
                }  # fmt: skip
                yield record  # filled as its sessions come (rows are ordered by external id)
            record["sessions"].append(session)
        elif source["kind"] == "document":
            yield {
                "type": "document", "id": source["external_id"], **_drop_empty({"title": source["title"]}),
                **_drop_empty({"created_at": _iso(source["created_at"])}), **scope,
                "text": "\n\n".join(e["observation"] for e in episodes),
            }  # fmt: skip
        else:
            steps = [
                _drop_empty({
                    "observation": e["observation"], "action": e["action"], "reward": e["reward"],
                    "subgoal": e["subgoal"], "timestamp": _iso(e["occurred_at"]),
                })
                for e in episodes
            ]  # fmt: skip
            yield {
                "type": "trajectory", "id": source["external_id"], "task": source["title"],
                **_drop_empty({"started_at": _iso(source["created_at"])}), **scope, "steps": steps,
            }  # fmt: skip


def _own(metadata: dict[str, Any], inherited: dict[str, Any]) -> dict[str, Any]:
    """A turn's metadata where it differs from its record's."""
    return {k: v for k, v in metadata.items() if inherited.get(k) != v}


def _iso(value: Any) -> str | None:
    return value.iso_format() if hasattr(value, "iso_format") else (value.isoformat() if value else None)


def _drop_empty(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if v not in (None, "", {})}
