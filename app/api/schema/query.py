"""Queries: recall, navigation, lookups by id, job status and space statistics."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

import strawberry
from pydantic import ValidationError

from app.api.embedder_guard import require_same_embedder
from app.api.errors import InvalidArgument
from app.api.metrics import RECALL_SECONDS
from app.api.pagination import Connection, decode_cursor, page_size
from app.api.schema.admin_types import ApiKey
from app.api.schema.job_types import Job
from app.api.schema.navigation_types import ConceptPage as ConceptPageType
from app.api.schema.navigation_types import (
    DimensionPage,
    Link,
    concept_page_of,
    link_of,
    navigator,
)
from app.api.schema.nodes import Dimension, Episode, Info, Node, node_from_row
from app.api.schema.outcomes import InvalidInput, NotFound, OverBudget
from app.api.schema.read_arguments import recall_argument, refusal, validation_problems
from app.api.schema.recall_types import Recall
from app.api.schema.scope_args import AgentArg, MetadataArg, SessionArg, UserArg, scope_filter
from engram.scope import parent_space
from graph.navigation import LinkType
from graph.navigation import NotFound as NavigationNotFound
from graph.recall.arguments import RECALL_ARGUMENTS
from graph.recall.models import MemoryType, RecallRequest
from workers.jobs import UnknownJob


@strawberry.type(description="How much a space holds.")
class SpaceStats:
    space: str
    sources: int
    episodes: int
    propositions: int
    active_propositions: int
    concepts: int
    intents: int
    prescriptions: int
    dimensions: int


@strawberry.type(description="The typed links of a node.")
class Links:
    links: list[Link]


RecallPayload = Annotated[Recall | InvalidInput | OverBudget, strawberry.union("RecallPayload")]
EpisodeResult = Annotated[Episode | NotFound, strawberry.union("EpisodeResult")]
ConceptPageResult = Annotated[ConceptPageType | NotFound, strawberry.union("ConceptPageResult")]
DimensionResult = Annotated[DimensionPage | NotFound, strawberry.union("DimensionResult")]
FollowResult = Annotated[Links | NotFound, strawberry.union("FollowResult")]
JobResult = Annotated[Job | NotFound, strawberry.union("JobResult")]


@strawberry.type
class MemoryQuery:
    @strawberry.field(description="What memory recalls for a query, with provenance and an explanation trace.")
    async def recall(
        self,
        info: Info,
        query: Annotated[str, recall_argument("query")],
        memory_types: Annotated[list[MemoryType] | None, recall_argument("memory_types")] = None,
        token_budget: Annotated[int | None, recall_argument("token_budget")] = None,
        hop_limit: Annotated[int | None, recall_argument("hop_limit")] = None,
        limit: Annotated[int | None, recall_argument("limit")] = None,
        as_of: Annotated[datetime | None, recall_argument("as_of")] = None,
        known_at: Annotated[datetime | None, recall_argument("known_at")] = None,
        asker: Annotated[str | None, recall_argument("asker")] = None,
        addressee: Annotated[str | None, recall_argument("addressee")] = None,
        now: Annotated[datetime | None, recall_argument("now")] = None,
        user: UserArg = None,
        agent: AgentArg = None,
        session: SessionArg = None,
        metadata: MetadataArg = None,
        min_relevance: Annotated[float | None, recall_argument("min_relevance")] = None,
        recipe: Annotated[str | None, recall_argument("recipe")] = None,
    ) -> RecallPayload:
        info.context.for_user(user)
        values: dict[str, Any] = {
            "query": query, "memory_types": memory_types, "token_budget": token_budget, "hop_limit": hop_limit,
            "limit": limit, "as_of": as_of, "known_at": known_at, "addressee": addressee,
            "min_relevance": min_relevance, "recipe": recipe,
            # A user's own recall asks as that user ("Where do I live?"), as `remember` speaks as them by default;
            # relative times are read against the question's moment: asOf, else the server's clock.
            "asker": user if asker is None else asker,
            "now": now or as_of or datetime.now(UTC),
        }  # fmt: skip
        refused = refusal(RECALL_ARGUMENTS, values)
        if refused is not None:
            return refused
        try:
            request = RecallRequest(space=info.context.space, scope=scope_filter(agent, session, metadata), **values)
        except ValidationError as exc:
            return validation_problems(exc)
        await require_same_embedder(info.context)
        with RECALL_SECONDS.time():
            result = await asyncio.to_thread(info.context.services.recall.recall, request)
        info.context.extra_queries += int(result.trace[-1].detail.get("cypher_statements", 0)) if result.trace else 0
        return Recall.of(result)

    @strawberry.field(description="Any node of the caller's space by id (null if there is none).")
    async def node(self, info: Info, id: strawberry.ID, user: UserArg = None) -> Node | None:
        info.context.for_user(user)
        found = await info.context.loaders.node.load(str(id))
        return node_from_row(*found) if found else None

    @strawberry.field(description="Nodes by id, in the order asked (null where there is none).")
    async def nodes(self, info: Info, ids: list[strawberry.ID], user: UserArg = None) -> list[Node | None]:
        info.context.for_user(user)
        cap = info.context.services.settings.api.max_page
        if len(ids) > cap:
            raise InvalidArgument(f"at most {cap} ids per request, got {len(ids)}")
        found = await info.context.loaders.node.load_many([str(i) for i in ids])
        return [node_from_row(*row) if row else None for row in found]

    @strawberry.field(description="An episode by id.")
    async def episode(self, info: Info, id: strawberry.ID, user: UserArg = None) -> EpisodeResult:
        info.context.for_user(user)
        found = await info.context.loaders.node.load(str(id))
        if found is None or found[0] != "Episode":
            return NotFound(message=f"no episode {id!r} in this space", id=str(id))
        return Episode.from_row(found[1])

    @strawberry.field(description="The dimensions (communities of concepts) of memory, largest first.")
    async def dimensions(
        self, info: Info, first: int = 20, after: str | None = None, user: UserArg = None
    ) -> Connection[DimensionPage]:
        info.context.for_user(user)
        size = page_size(first, info.context.services.settings.api.max_page)
        offset = decode_cursor(after)
        views = await asyncio.to_thread(navigator(info).dimensions)
        pages = [
            DimensionPage(
                dimension=Dimension(id=strawberry.ID(v.id), label=v.label, summary=v.summary or ""),
                concept_count=v.concepts,
            )
            for v in views
        ]
        return Connection.from_page(pages[offset : offset + size + 1], offset, size, lambda p: p, len(pages))

    @strawberry.field(description="One dimension and its concept pages.")
    async def dimension(self, info: Info, id: strawberry.ID, user: UserArg = None) -> DimensionResult:
        info.context.for_user(user)
        views = await asyncio.to_thread(navigator(info).dimensions)
        for v in views:
            if v.id == str(id):
                dimension = Dimension(id=strawberry.ID(v.id), label=v.label, summary=v.summary or "")
                return DimensionPage(dimension=dimension, concept_count=v.concepts)
        return NotFound(message=f"no dimension {id!r} in this space", id=str(id))

    @strawberry.field(description="A concept page by key: the concept, its neighbours, aliases and propositions.")
    async def concept(self, info: Info, key: str, user: UserArg = None) -> ConceptPageResult:
        info.context.for_user(user)
        try:
            page = await asyncio.to_thread(navigator(info).concept_page, key, 1, 0)
        except NavigationNotFound:
            return NotFound(message=f"no concept {key!r} in this space", id=key)
        return await concept_page_of(info, page)

    @strawberry.field(description="Follow one type of link from a node (strongest first).")
    async def follow(
        self, info: Info, node_id: strawberry.ID, link_type: LinkType, first: int = 20, user: UserArg = None
    ) -> FollowResult:
        info.context.for_user(user)
        size = page_size(first, info.context.services.settings.api.max_page)
        if await info.context.loaders.node.load(str(node_id)) is None:
            return NotFound(message=f"no node {node_id!r} in this space", id=str(node_id))
        neighbours = await asyncio.to_thread(navigator(info).follow, str(node_id), link_type.value, size)
        rows = await info.context.loaders.node.load_many([n.id for n in neighbours])
        return Links(
            links=[
                link_of(link_type.value, n.outgoing, n.properties, *row)
                for n, row in zip(neighbours, rows, strict=True)
                if row is not None
            ]
        )

    @strawberry.field(description="An ingest job of this space.")
    async def job(self, info: Info, id: strawberry.ID) -> JobResult:
        space = info.context.key_space
        try:
            status = await asyncio.to_thread(info.context.services.jobs.status, str(id))
        except UnknownJob:
            status = None
        # Another space's job does not exist for this caller; its users' jobs are the space's.
        if status is None or parent_space(status.space) != space:
            message = await asyncio.to_thread(info.context.services.deletion.gone_job_message, space, str(id))
            return NotFound(message=message, id=str(id))
        return Job.of(status)

    @strawberry.field(description="How much the caller's space holds.")
    async def stats(self, info: Info, user: UserArg = None) -> SpaceStats:
        info.context.for_user(user)
        row = await asyncio.to_thread(info.context.reader.stats)
        return SpaceStats(space=info.context.space, **row)

    @strawberry.field(description="The API keys of the caller's space (never their secrets).")
    async def api_keys(self, info: Info) -> list[ApiKey]:
        keys = await asyncio.to_thread(info.context.services.keys.keys, info.context.key_space)
        info.context.extra_queries += 1
        return [ApiKey.of(k) for k in keys]
