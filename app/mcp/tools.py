"""The memory tools an agent calls, each a thin adapter over one GraphQL operation of the typed client.

Nothing here reads or writes the graph itself: every call goes through the GraphQL API (in-process for the
HTTP endpoint, over HTTP for stdio), so validation, limits, tenancy and auth are the API's, in one place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypedDict, cast

import httpx
from engram_client import AsyncEngramClient, LinkType, MemoryKind
from engram_client.exceptions import GraphQLClientGraphQLMultiError, GraphQLClientHttpError
from engram_client.memories import MemoriesMemoriesEdgesNode

from app.mcp.models import (
    AggregateAnswer,
    AssociateAnswer,
    AssociatedMemory,
    ConceptSummary,
    CorrectionReport,
    DimensionSummary,
    Evidence,
    ExportPage,
    ForgetReport,
    JobReport,
    LinkedNode,
    MemoryEntry,
    MemoryList,
    ProfileAnswer,
    ProfileFactEntry,
    ProfileSlotEntry,
    ProfileSubjectEntry,
    RecallAnswer,
    RecalledItem,
    WrittenSource,
)
from app.mcp.render import render_aggregate, render_context, render_profile
from engram.formats.records import Record
from graph.recall.arguments import named_only

FINISHED = {"SUCCEEDED", "FAILED"}
POLL_S = 0.5


class TextScope(TypedDict, total=False):
    """Where a remembered text goes and what it carries (the `remember` operation's arguments but the text)."""

    user: str | None
    agent: str | None
    session: str | None
    speaker: str | None
    at: datetime | None
    id: str | None
    metadata: dict[str, Any] | None


class ForgetScope(TypedDict, total=False):
    """What to forget (the `forget` operation's arguments)."""

    episode_ids: list[str]
    source_ids: list[str]
    knowledge_ids: list[str]
    agent: str | None
    session: str | None
    metadata: dict[str, Any] | None
    user: str | None


class ListScope(TypedDict, total=False):
    """Whose memory and which part of it a listing or an export covers, and the page."""

    user: str | None
    agent: str | None
    session: str | None
    metadata: dict[str, Any] | None
    first: int
    after: str | None


class ToolFailure(Exception):
    """A request the API refused, with the API's own words: the agent can act on them."""


def _refused(result: Any) -> ToolFailure:
    problems = getattr(result, "problems", None)
    detail = f" ({'; '.join(problems)})" if problems else ""
    return ToolFailure(f"{result.typename__}: {result.message}{detail}")


class MemoryTools:
    """The tools' logic over one client; the client carries the caller's API key (it selects the space)."""

    def __init__(self, client: AsyncEngramClient) -> None:
        self._client = client

    async def remember(self, records: list[Record], user: str | None, wait: bool, timeout_s: float) -> JobReport:
        """Ingest records (into `user`'s memory where a record names no user)."""
        payload = [
            record.model_dump(mode="json", exclude_none=True) | ({"user": user} if user and not record.user else {})
            for record in records
        ]
        return await self._queued((await self._client.ingest(records=payload)).ingest, wait, timeout_s)

    async def remember_text(self, text: str, scope: TextScope, wait: bool, timeout_s: float) -> JobReport:
        """One text: a turn of the scope's running conversation (split into passages when over-long)."""
        queued = (await self._client.remember(text=text, **scope)).remember
        return await self._queued(queued, wait, timeout_s)

    async def _queued(self, queued: Any, wait: bool, timeout_s: float) -> JobReport:
        if queued.typename__ != "Job":
            raise _refused(queued)
        written = [
            WrittenSource(
                source_id=s.id, external_id=s.external_id, kind=s.kind, episode_ids=[e.id for e in s.episodes],
                episode_external_ids=[e.external_id for e in s.episodes],
            )
            for s in queued.sources
        ]  # fmt: skip
        report = JobReport(job_id=queued.id, state=queued.state.value, sources=written)
        if not wait:
            return report
        deadline = asyncio.get_running_loop().time() + timeout_s
        while not report.finished and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(POLL_S)
            report = await self.job(report.job_id)
        return report.model_copy(update={"sources": written})

    async def job(self, job_id: str) -> JobReport:
        found = (await self._client.job(id=job_id)).job
        if found.typename__ != "Job":
            raise _refused(found)
        return JobReport(
            job_id=found.id,
            state=found.state.value,
            stage=found.stage,
            fraction=found.fraction,
            counts=dict(found.counts or {}),
            error=found.error,
            finished=found.state.value in FINISHED,
        )

    async def recall(self, query: str, named: Mapping[str, Any]) -> RecallAnswer:
        """Recall with the arguments the caller named; one left out (None) is not sent, so the server's default
        applies."""
        result = (await self._client.recall(query=query, **named_only(named))).recall
        if result.typename__ != "Recall":
            raise _refused(result)
        items = [
            RecalledItem(
                id=item.id,
                kind=item.kind,
                text=item.text,
                score=item.score,
                components=dict(item.components or {}),
                valid_from=item.valid_from,
                provenance=[Evidence.model_validate(p.model_dump()) for p in item.provenance],
                relevance=item.relevance,
                superseded_by=item.superseded_by,
                valid_to=item.valid_to,
            )
            for item in result.items
        ]
        aggregate = AggregateAnswer.model_validate(result.aggregate.model_dump()) if result.aggregate else None
        context = render_context(items, result.reason)
        return RecallAnswer(
            query=query,
            memory_types=[m.value for m in result.memory_types],
            tokens=result.tokens,
            items=items,
            context=f"{render_aggregate(aggregate)}\n{context}" if aggregate else context,
            reason=result.reason,
            aggregate=aggregate,
        )

    async def associate(self, utterance: str, named: Mapping[str, Any]) -> AssociateAnswer:
        """Proactive recall: the memories worth bringing up for what the user just said, each with why."""
        result = (await self._client.associate(utterance=utterance, **named_only(named))).associate
        if result.typename__ != "Associations":
            raise _refused(result)
        memories = [
            AssociatedMemory(
                item=RecalledItem(
                    id=found.item.id,
                    kind=found.item.kind,
                    text=found.item.text,
                    score=found.item.score,
                    components=dict(found.item.components or {}),
                    valid_from=found.item.valid_from,
                    provenance=[Evidence.model_validate(p.model_dump()) for p in found.item.provenance],
                ),
                why=[f"{path.kind.value.lower()}: {path.detail}" for path in found.why],
            )
            for found in result.associations
        ]
        context = render_context([m.item for m in memories], result.reason)
        if memories:
            lines = context.split("\n")
            why = [f"{rank}. why: {'; '.join(m.why)}" for rank, m in enumerate(memories, start=1)]
            context = "\n".join([*lines, *why])
        return AssociateAnswer(utterance=utterance, memories=memories, context=context, reason=result.reason)

    async def forget(self, wanted: ForgetScope) -> ForgetReport:
        result = (await self._client.forget(**wanted)).forget
        if result.typename__ != "Forgotten":
            raise _refused(result)
        return ForgetReport.model_validate(result.model_dump())

    async def correct(
        self, proposition_id: str, text: str, valid_from: datetime | None, reason: str, user: str | None = None
    ) -> CorrectionReport:
        result = (
            await self._client.correct(
                proposition_id=proposition_id, text=text, valid_from=valid_from, reason=reason, user=user
            )
        ).correct
        if result.typename__ != "Corrected":
            raise _refused(result)
        current = result.proposition
        return CorrectionReport(
            created=result.created,
            proposition_id=result.proposition_id,
            text=current.text if current else text,
            supersedes_id=result.supersedes_id,
        )

    async def dimensions(self, user: str | None = None) -> list[DimensionSummary]:
        page = (await self._client.dimensions(user=user)).dimensions
        return [
            DimensionSummary(
                id=edge.node.dimension.id,
                label=edge.node.dimension.label,
                concept_count=edge.node.concept_count,
                top_concepts=[c.node.concept.key for c in edge.node.concepts.edges],
            )
            for edge in page.edges
        ]

    async def concept(self, key: str, first: int, user: str | None = None) -> ConceptSummary:
        found = (await self._client.concept_page(key=key, first=first, user=user)).concept
        if found.typename__ != "ConceptPage":
            raise _refused(found)
        return ConceptSummary(
            key=found.concept.key,
            name=found.concept.name,
            dimension=found.dimension.label if found.dimension else None,
            associated=[a.key for a in found.associated],
            aliases=list(found.aliases),
            propositions=[f"{e.node.id}: {e.node.text}" for e in found.propositions.edges],
            total_propositions=found.propositions.total_count or 0,
        )

    async def follow(self, node_id: str, link_type: LinkType, user: str | None = None) -> list[LinkedNode]:
        found = (await self._client.follow(node_id=node_id, link_type=link_type, user=user)).follow
        if found.typename__ != "Links":
            raise _refused(found)
        return [
            LinkedNode(
                link_type=link.type_.value,
                outgoing=link.outgoing,
                node_id=link.node.id,
                node_kind=link.node.typename__,
                text=str(getattr(link.node, "text", None) or getattr(link.node, "key", None) or ""),
            )
            for link in found.links
            if link.node is not None
        ]

    async def memories(
        self,
        kinds: list[MemoryKind] | None,
        since: datetime | None,
        until: datetime | None,
        include_superseded: bool,
        listing: ListScope,
    ) -> MemoryList:
        page = (
            await self._client.memories(
                kinds=kinds, since=since, until=until, include_superseded=include_superseded, **listing
            )
        ).memories
        return MemoryList(
            total=page.total_count or 0,
            memories=[_entry(edge.node) for edge in page.edges],
            next_cursor=page.page_info.end_cursor if page.page_info.has_next_page else None,
        )

    async def profile(self, user: str, subject: str | None = None) -> ProfileAnswer:
        """What memory believes about `user` now, slot by slot, and what it believed before."""
        found = (await self._client.profile(user=user, subject=subject)).profile
        if found.typename__ != "Profile":
            raise _refused(found)

        def fact(f: Any) -> ProfileFactEntry:
            return ProfileFactEntry(
                proposition_id=f.proposition_id, text=f.text, predicate=f.predicate, value=f.value,
                value_type=f.value_type, polarity=f.polarity, valid_from=f.valid_from, valid_to=f.valid_to,
                superseded_by=f.superseded_by,
                provenance=[Evidence.model_validate(p.model_dump()) for p in f.provenance],
            )  # fmt: skip

        subjects = [
            ProfileSubjectEntry(
                subject=s.subject,
                slots=[
                    ProfileSlotEntry(
                        slot=slot.slot,
                        current=fact(slot.current) if slot.current else None,
                        also_current=[fact(f) for f in slot.also_current],
                        history=[fact(f) for f in slot.history],
                    )
                    for slot in s.slots
                ],
            )
            for s in found.subjects
        ]
        answer = ProfileAnswer(user=found.user, subjects=subjects, truncated=found.truncated, context="")
        return answer.model_copy(update={"context": render_profile(answer)})

    async def export(self, listing: ListScope, vectors: bool = False) -> ExportPage:
        if vectors:
            if listing.get("agent") or listing.get("session") or listing.get("metadata"):
                raise ToolFailure("vectors: a vectors export covers a whole memory; drop session, agent and metadata")
            found = (
                await self._client.export_vectors(
                    user=listing.get("user"), first=listing.get("first"), after=listing.get("after")
                )
            ).export_vectors
            return ExportPage(
                jsonl=found.jsonl, records=0, total_sources=0, next_cursor=found.end_cursor, nodes=found.nodes,
                total_nodes=found.total_nodes,
            )  # fmt: skip
        page = (await self._client.export(**listing)).export
        return ExportPage(
            jsonl=page.jsonl, records=page.records, total_sources=page.total_sources, next_cursor=page.end_cursor
        )


def _entry(node: MemoriesMemoriesEdgesNode) -> MemoryEntry:
    sources = {o.source_external_id for o in node.origins if o.source_external_id}
    return MemoryEntry(
        id=node.id,
        kind=node.kind.value,
        text=node.text,
        status=node.status,
        at=node.at,
        valid_to=node.valid_to,
        episode_external_ids=[o.episode_external_id for o in node.origins],
        source_external_ids=sorted(sources),
    )


def unreachable(exc: httpx.TransportError) -> ToolFailure:
    """The API could not be reached: which URL was tried, and what to check."""
    return ToolFailure(
        f"cannot reach the API at {exc.request.url} ({type(exc).__name__}: {exc}): is it running, and is "
        "ENGRAM_URL its address (http://host:port, or that address with /graphql)?"
    )


def api_failure(exc: GraphQLClientHttpError | GraphQLClientGraphQLMultiError) -> ToolFailure:
    """The API's refusal (a wrong key: 401, a rate limit: 429, a malformed call) as a tool error."""
    if isinstance(exc, GraphQLClientHttpError):
        response = cast(httpx.Response, exc.response)
        try:
            message = response.json()["errors"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            message = response.text[:200]
        return ToolFailure(f"HTTP {exc.status_code} from {response.request.url}: {message}")
    return ToolFailure("; ".join(error.message for error in exc.errors))
