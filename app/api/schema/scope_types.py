"""The app's view of its memory: users, sources and memories listed page by page, export in the ingest format, and
the admin's deleteSpace (engram/scope.py, graph/scoped.py)."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from app.api.errors import InvalidArgument
from app.api.pagination import Connection, decode_cursor, encode_cursor, page_size
from app.api.schema.json import to_json
from app.api.schema.nodes import Fact, Info
from app.api.schema.outcomes import NotFound
from app.api.schema.scope_args import AgentArg, MetadataArg, SessionArg, UserArg, scope_filter
from engram.ids import validate_space
from engram.scope import ScopeFilter, memory_space
from graph.scoped import export_records
from graph.vector_export import ExportRefused, VectorExporter

EXPORT_MAX_SOURCES = 200  # sources per export page: a page is one JSONL string in one response
EXPORT_MAX_NODES = 2000  # nodes per page of a vectors export (about 2.2 kB each with its vector)


@strawberry.enum(description="The kinds of memory `memories` lists.")
class MemoryKind(StrEnum):
    PROPOSITION = "proposition"
    PRESCRIPTION = "prescription"
    EPISODE = "episode"


@strawberry.type(description="A user of the space with a memory of their own.")
class User:
    user: str


@strawberry.type(description="An ingested source: a conversation session, a document or a trajectory.")
class ListedSource:
    id: strawberry.ID
    external_id: str = strawberry.field(description="the app's id: the record's, 'record/session' for a session")
    kind: str
    title: str
    created_at: datetime | None
    agent: str | None
    session: str | None
    metadata: JSON
    episodes: int = strawberry.field(description="how many episodes (turns, passages, steps) it has")

    @staticmethod
    def of(row: dict[str, Any]) -> ListedSource:
        return ListedSource(
            id=strawberry.ID(row["id"]),
            external_id=row["external_id"] or "",
            kind=row["kind"] or "",
            title=row.get("title") or "",
            created_at=_native(row.get("created_at")),
            agent=row.get("agent"),
            session=row.get("session"),
            metadata=to_json(row.get("metadata") or {}),
            episodes=int(row["episodes"]),
        )


@strawberry.type(description="Where a memory comes from, in the app's ids.")
class MemoryOrigin:
    episode_id: strawberry.ID
    episode_external_id: str
    source_id: strawberry.ID | None
    source_external_id: str | None


@strawberry.type(description="One memory: a fact, a procedure or an episode, with where it comes from.")
class Memory:
    id: strawberry.ID
    kind: MemoryKind
    text: str
    status: str = strawberry.field(description="active, or superseded by a later statement or a correction")
    at: datetime | None = strawberry.field(description="when it was true or happened (else when it was recorded)")
    valid_to: datetime | None
    origins: list[MemoryOrigin]
    fact: Fact | None = strawberry.field(
        description="a proposition's atomic fact (subject, attribute, value); null for one that is no fact, a "
        "procedure or an episode"
    )

    @staticmethod
    def of(row: dict[str, Any]) -> Memory:
        return Memory(
            id=strawberry.ID(row["id"]),
            kind=MemoryKind(row["kind"]),
            text=row.get("text") or "",
            status=row.get("status") or "active",
            at=_native(row.get("at")),
            valid_to=_native(row.get("valid_to")),
            origins=[
                MemoryOrigin(
                    episode_id=strawberry.ID(e["id"]),
                    episode_external_id=e.get("external_id") or "",
                    source_id=strawberry.ID(e["source"]["id"]) if e.get("source") else None,
                    source_external_id=e["source"]["external_id"] if e.get("source") else None,
                )
                for e in row["episodes"]
            ],
            fact=Fact.of(row.get("fact")),
        )


@strawberry.type(description="A page of an export: JSONL in the ingest format, one record per line.")
class ExportPage:
    jsonl: str = strawberry.field(description="ingest it back (`ingest(input: {payload})` or `engram import`)")
    records: int
    sources: int = strawberry.field(description="sources on this page")
    total_sources: int
    end_cursor: str | None = strawberry.field(description="pass as `after` for the next page (null: the last)")


def _paged(
    info: Info, user: str | None, agent: str | None, session: str | None, metadata: Any, first: int,
    after: str | None, cap: int | None = None,
) -> tuple[str, ScopeFilter, int, int]:  # fmt: skip
    """A listing's memory space, filter, page size (at most `cap`, default the API's page cap) and offset."""
    space = info.context.for_user(user)
    scope = scope_filter(agent, session, metadata)
    size = page_size(first, cap or info.context.services.settings.api.max_page)
    return space, scope, size, decode_cursor(after)


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


@strawberry.type
class ScopeQuery:
    @strawberry.field(description="The users of the caller's space who have a memory of their own.")
    async def users(self, info: Info) -> list[User]:
        space = info.context.key_space
        found = await asyncio.to_thread(info.context.services.scoped.users, space)
        info.context.extra_queries += 1
        return [User(user=user) for user, _ in found]

    @strawberry.field(description="The sources of a memory (its conversations' sessions, documents, trajectories).")
    async def sources(
        self,
        info: Info,
        user: UserArg = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
        kind: Annotated[str | None, strawberry.argument(description="conversation, document or trajectory")] = None,
        first: int = 20,
        after: str | None = None,
    ) -> Connection[ListedSource]:
        space, scope, size, offset = _paged(info, user, agent, session, metadata, first, after)
        page = await asyncio.to_thread(info.context.services.scoped.sources, space, scope, kind, offset, size + 1)
        info.context.extra_queries += 1
        return Connection.from_page(page.rows, offset, size, ListedSource.of, page.total)

    @strawberry.field(
        description="A memory's memories, newest first: current facts and procedures, and the episodes they come "
        "from, filtered by kind, time, agent, session and metadata."
    )
    async def memories(
        self,
        info: Info,
        user: UserArg = None,
        kinds: list[MemoryKind] | None = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
        since: Annotated[datetime | None, strawberry.argument(description="from this time (inclusive)")] = None,
        until: Annotated[datetime | None, strawberry.argument(description="before this time")] = None,
        include_superseded: bool = False,
        first: int = 20,
        after: str | None = None,
    ) -> Connection[Memory]:
        space, scope, size, offset = _paged(info, user, agent, session, metadata, first, after)
        wanted = [k.value for k in (kinds or [MemoryKind.PROPOSITION, MemoryKind.PRESCRIPTION])]
        page = await asyncio.to_thread(
            info.context.services.scoped.memories, space, scope, wanted, since, until, include_superseded, offset,
            size + 1,
        )  # fmt: skip
        info.context.extra_queries += 1
        return Connection.from_page(page.rows, offset, size, Memory.of, page.total)

    @strawberry.field(
        description="A memory (or what matches agent, session and metadata in it) as JSONL in the ingest format, "
        "page by page: ingesting the pages into an empty memory writes the same sources, episodes and ids."
    )
    async def export(
        self,
        info: Info,
        user: UserArg = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
        first: Annotated[int, strawberry.argument(description=f"sources per page (1-{EXPORT_MAX_SOURCES})")] = 100,
        after: str | None = None,
    ) -> ExportPage:
        space, scope, size, offset = _paged(info, user, agent, session, metadata, first, after, EXPORT_MAX_SOURCES)
        page = await asyncio.to_thread(info.context.services.scoped.export_page, space, scope, offset, size)
        info.context.extra_queries += 1
        records = list(export_records(page.rows, user))
        more = offset + len(page.rows) < page.total
        return ExportPage(
            jsonl="".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
            records=len(records),
            sources=len(page.rows),
            total_sources=page.total,
            end_cursor=encode_cursor(offset + len(page.rows) - 1) if more and page.rows else None,
        )


@strawberry.type(description="A page of an export's vectors file (docs/embedding.md, 'Exports with vectors').")
class VectorExportPage:
    jsonl: str = strawberry.field(
        description="JSONL lines: on the first page a header naming the space and its embedder, then one line per "
        "node with its properties, vector (base64 float32) and relationships"
    )
    nodes: int = strawberry.field(description="nodes on this page")
    total_nodes: int
    end_cursor: str | None = strawberry.field(description="pass as `after` for the next page (null: the last)")


@strawberry.type
class VectorExportQuery:
    @strawberry.field(
        description="A whole memory (a space's, or a user's) with its vectors and the knowledge derived from it, page "
        "by page: `engram import --bulk FILE --space S` loads the pages into the same memory space, empty, with no "
        "model. Only a whole memory: agent, session and metadata filters apply to `export`, not to this."
    )
    async def export_vectors(
        self,
        info: Info,
        user: UserArg = None,
        first: Annotated[int, strawberry.argument(description=f"nodes per page (1-{EXPORT_MAX_NODES})")] = 1000,
        after: str | None = None,
    ) -> VectorExportPage:
        space = info.context.for_user(user)
        if not 1 <= first <= EXPORT_MAX_NODES:
            raise InvalidArgument(f"first: between 1 and {EXPORT_MAX_NODES}, got {first}")
        services = info.context.services
        exporter = VectorExporter(services.driver, services.database)
        try:
            page = await asyncio.to_thread(exporter.page, space, services.embedder_identity, after, first)
        except ExportRefused as exc:
            raise InvalidArgument(str(exc)) from exc
        except ValueError as exc:  # a cursor this export did not hand out
            raise InvalidArgument(str(exc)) from exc
        info.context.extra_queries += 1
        return VectorExportPage(
            jsonl="".join(line + "\n" for line in page.lines), nodes=page.nodes, total_nodes=page.total_nodes,
            end_cursor=page.cursor,
        )  # fmt: skip


@strawberry.type(description="A space deleted with every user's memory in it.")
class SpaceDeleted:
    space: str
    users: int = strawberry.field(description="users' memories deleted with it")
    episodes_removed: int = strawberry.field(default=0, description="episodes deleted, every user's included")
    knowledge_removed: int = strawberry.field(default=0, description="propositions and prescriptions deleted")
    stopped_job_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="ingest jobs of the space stopped unfinished: they write nothing, and are gone",
    )


DeleteSpacePayload = Annotated[SpaceDeleted | NotFound, strawberry.union("DeleteSpacePayload")]


@strawberry.type
class ScopeMutation:
    @strawberry.mutation(
        description="Admin only: delete a space, every user's memory in it and its API keys. Cannot be undone."
    )
    async def delete_space(self, info: Info, name: str) -> DeleteSpacePayload:
        info.context.require_admin()
        try:
            validate_space(name)
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        services = info.context.services
        users = await asyncio.to_thread(services.scoped.users, name)
        exists = await asyncio.to_thread(services.scoped.exists, name)
        if not exists and not users:
            return NotFound(message=f"no space {name!r}", id=name)
        partitions = [partition for _, partition in users]
        erased = await asyncio.to_thread(services.deletion.whole, memory_space(name, None), partitions, True)
        return SpaceDeleted(
            space=name, users=erased.users, episodes_removed=erased.episodes, knowledge_removed=erased.knowledge,
            stopped_job_ids=[strawberry.ID(i) for i in erased.stopped_jobs],
        )  # fmt: skip
