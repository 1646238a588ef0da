"""The MCP server: Engram's memory tools for agents, over stdio (`engram mcp`) or streamable HTTP (/mcp on the API).

Each tool is a MemoryTools call on a typed GraphQL client that carries the caller's API key; a `ClientSource`
says where that client comes from (the API over HTTP for stdio, the API app in-process for /mcp).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, Protocol, TypeVar

from engram_client import AsyncEngramClient, LinkType, MemoryType
from engram_client.exceptions import GraphQLClientGraphQLMultiError, GraphQLClientHttpError
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import Field

from app.mcp.models import (
    ConceptSummary,
    CorrectionReport,
    DimensionSummary,
    ForgetReport,
    JobReport,
    LinkedNode,
    RecallAnswer,
)
from app.mcp.tools import MemoryTools, ToolFailure, api_failure
from engram.formats.records import MAX_RECORDS_PER_JOB, Record

INSTRUCTIONS = """Engram is your long-term memory. Use `remember` to store what happened (conversation turns, a
document, an agent trajectory), `recall` before answering anything that may depend on the past (it returns
knowledge best first, each item with the episodes that prove it, and a compact `context` text; pass `asker`, the
user's name as they speak in memory, when the query says "I" or "my"), `forget` and `correct` when the user asks,
and the explore tools (`list_dimensions`, `concept_page`, `follow_link`) to walk memory step by step. Your API key
selects your memory space."""

T = TypeVar("T")


class ClientSource(Protocol):
    """The typed GraphQL client for the caller of this tool call."""

    def __call__(self, ctx: Context[Any, Any, Any]) -> AsyncEngramClient: ...


async def _run(clients: ClientSource, ctx: Context[Any, Any, Any], call: Callable[[MemoryTools], Awaitable[T]]) -> T:
    """Run one tool call; the API's refusals become tool errors the agent reads (not protocol errors)."""
    try:
        return await call(MemoryTools(clients(ctx)))
    except ToolFailure as exc:
        raise ToolError(str(exc)) from exc
    except (GraphQLClientHttpError, GraphQLClientGraphQLMultiError) as exc:
        raise ToolError(str(api_failure(exc))) from exc


def build_mcp_server(clients: ClientSource) -> FastMCP[Any]:
    """The server with every memory tool registered; the transports are chosen by the caller."""
    server: FastMCP[Any] = FastMCP(
        "engram",
        instructions=INSTRUCTIONS,
        streamable_http_path="/mcp",
        stateless_http=True,  # no session affinity: any API process answers any call
        json_response=True,
        # Every request must carry an API key header, which a DNS-rebinding page cannot add without a CORS
        # preflight the API never grants; the Host check would only refuse legitimate deployments.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )

    @server.tool(
        description="Store experiences in memory: conversation sessions with turns, documents or agent trajectories. "
        "The whole payload is validated first; then an ingest job extracts knowledge in the background. With "
        "wait=true the call returns when the job has finished (or timeout_s passed), with counts of what was written."
    )
    async def remember(
        records: Annotated[list[Record], Field(min_length=1, max_length=MAX_RECORDS_PER_JOB)],
        ctx: Context[Any, Any, Any],
        wait: Annotated[bool, Field(description="wait for the ingest job to finish")] = False,
        timeout_s: Annotated[float, Field(gt=0, le=600, description="how long to wait, with wait=true")] = 120.0,
    ) -> JobReport:
        return await _run(clients, ctx, lambda tools: tools.remember(records, wait, timeout_s))

    @server.tool(
        description="Recall what memory knows for a query: propositions (facts), prescriptions (how-to) and episodes, "
        "best first, each with its score and the episodes that prove it; `context` is the same as compact text. "
        "memory_types restricts the kinds (default: routed from the query); as_of answers as memory stood then; "
        "asker and addressee name who the query's I/my and you/your are, as they speak in memory; now is when the "
        "query is asked, so that its 'two weeks ago' or 'last weekend' can be read. Each item has a relevance in "
        "[0, 1]; items below min_relevance are left out, and when none is left, `reason` says what memory lacks "
        "(answer that you do not know)."
    )
    async def recall(
        query: Annotated[str, Field(min_length=1, max_length=2_000, description="a question or a topic")],
        ctx: Context[Any, Any, Any],
        memory_types: Annotated[
            list[MemoryType] | None, Field(description="EPISODIC, SEMANTIC and/or PROCEDURAL; null to route")
        ] = None,
        token_budget: Annotated[int, Field(ge=1, le=32_768, description="tokens the items may take")] = 1024,
        limit: Annotated[int, Field(ge=1, le=200, description="at most this many items")] = 10,
        as_of: Annotated[datetime | None, Field(description="recall as memory stood at this time (ISO 8601)")] = None,
        asker: Annotated[
            str | None, Field(min_length=1, max_length=200, description="the speaker the query's I/me/my means")
        ] = None,
        addressee: Annotated[
            str | None, Field(min_length=1, max_length=200, description="the speaker the query's you/your means")
        ] = None,
        now: Annotated[
            datetime | None,
            Field(description="when the query is asked (ISO 8601): its relative times are read against it"),
        ] = None,
        min_relevance: Annotated[
            float | None,
            Field(
                ge=0,
                le=1,
                description="leave out items below this relevance (0 to 1; null: the server's default); when none "
                "reaches it, no item and a reason",
            ),
        ] = None,
    ) -> RecallAnswer:
        return await _run(
            clients,
            ctx,
            lambda tools: tools.recall(
                query, memory_types, token_budget, limit, as_of, asker, addressee, now, min_relevance
            ),
        )

    @server.tool(
        description="Forget episodes, whole sources (a conversation session, a document, a trajectory) or pieces of "
        "knowledge, by id. Knowledge proven only by forgotten episodes goes with them. Returns what was removed."
    )
    async def forget(
        ctx: Context[Any, Any, Any],
        episode_ids: list[str] | None = None,
        source_ids: list[str] | None = None,
        knowledge_ids: Annotated[list[str] | None, Field(description="proposition or prescription ids")] = None,
    ) -> ForgetReport:
        return await _run(
            clients, ctx, lambda tools: tools.forget(episode_ids or [], source_ids or [], knowledge_ids or [])
        )

    @server.tool(
        description="Correct a fact: the new statement supersedes the proposition (which stays as history and keeps "
        "answering `recall` with an earlier as_of). Use the proposition id from `recall`."
    )
    async def correct(
        proposition_id: str,
        text: Annotated[str, Field(min_length=1, max_length=2_000, description="the corrected statement")],
        ctx: Context[Any, Any, Any],
        valid_from: Annotated[datetime | None, Field(description="when the corrected fact became true")] = None,
        reason: str = "",
    ) -> CorrectionReport:
        return await _run(clients, ctx, lambda tools: tools.correct(proposition_id, text, valid_from, reason))

    @server.tool(description="The dimensions of memory (communities of concepts), largest first, with top concepts.")
    async def list_dimensions(ctx: Context[Any, Any, Any]) -> list[DimensionSummary]:
        return await _run(clients, ctx, lambda tools: tools.dimensions())

    @server.tool(
        description="A concept page by key: the concept, its dimension, associated concepts, aliases and its first "
        "propositions (ids you can pass to follow_link, correct or forget)."
    )
    async def concept_page(
        key: str,
        ctx: Context[Any, Any, Any],
        first: Annotated[int, Field(ge=1, le=100, description="how many propositions")] = 10,
    ) -> ConceptSummary:
        return await _run(clients, ctx, lambda tools: tools.concept(key, first))

    @server.tool(
        description="Follow one type of link from any node: PROVEN_BY (a fact's evidence), MENTIONS, NEXT (what came "
        "after an episode), SUPERSEDES, ASSOCIATED (related concepts) and the other link types of the schema."
    )
    async def follow_link(node_id: str, link_type: LinkType, ctx: Context[Any, Any, Any]) -> list[LinkedNode]:
        return await _run(clients, ctx, lambda tools: tools.follow(node_id, link_type))

    @server.tool(description="An ingest job's state, stage, progress and counts (from `remember`).")
    async def job_status(job_id: str, ctx: Context[Any, Any, Any]) -> JobReport:
        return await _run(clients, ctx, lambda tools: tools.job(job_id))

    return server
