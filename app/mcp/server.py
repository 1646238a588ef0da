"""The MCP server: Engram's memory tools for agents, over stdio (`engram mcp`) or streamable HTTP (/mcp on the API).

Each tool is a MemoryTools call on a typed GraphQL client that carries the caller's API key; a `ClientSource`
says where that client comes from (the API over HTTP for stdio, the API app in-process for /mcp).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal, Protocol, TypeVar

import httpx
from engram_client import AsyncEngramClient, LinkType, MemoryKind, MemoryType
from engram_client.exceptions import GraphQLClientGraphQLMultiError, GraphQLClientHttpError
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import Field

from app.mcp.models import (
    AssociateAnswer,
    ConceptSummary,
    CorrectionReport,
    DimensionSummary,
    ExportPage,
    ForgetReport,
    JobReport,
    LinkedNode,
    MemoryList,
    ProfileAnswer,
    RecallAnswer,
)
from app.mcp.read_parameters import read_parameter
from app.mcp.tools import ForgetScope, ListScope, MemoryTools, TextScope, ToolFailure, api_failure, unreachable
from engram.formats.records import MAX_RECORDS_PER_JOB, Record
from graph.recall.arguments import (
    ADDRESSEE,
    AS_OF,
    ASKER,
    ASSOCIATE_LIMIT,
    ASSOCIATE_NOW,
    HOP_LIMIT,
    KNOWN_AT,
    LIMIT,
    MEMORY_TYPES,
    MIN_RELEVANCE,
    NOW,
    QUERY,
    RECIPE,
    SPEAKER,
    TOKEN_BUDGET,
    UTTERANCE,
)

INSTRUCTIONS = """Engram is your long-term memory. Use `remember` to store what happened (a plain `text`, or records:
conversation turns, a document, an agent trajectory), `recall` before answering anything that may depend on the past
(it returns knowledge best first, each item with the episodes that prove it, and a compact `context` text; pass
`asker`, the user's name as they speak in memory, when the query says "I" or "my"), `forget` and `correct` when the
user asks, `list_memories` to see what is kept, `profile` for what memory believes about a user now (each slot's
current fact and its history), and the explore tools (`list_dimensions`, `concept_page`, `follow_link`) to walk
memory step by step. Your API key selects your memory space; every memory tool takes `user`:
each user of the space has a memory of their own, apart from the others'."""

T = TypeVar("T")
UserParam = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=200,
        description="whose memory (each user of the space has their own, apart from the others'); null: the "
        "space's shared memory",
    ),
]
Records = Annotated[list[Record], Field(min_length=1, max_length=MAX_RECORDS_PER_JOB)]
Metadata = Annotated[
    dict[str, str | int | float | bool] | None,
    Field(description="a flat map of strings, numbers and booleans (at most 16 keys)"),
]
ScopeName = Annotated[str | None, Field(min_length=1, max_length=200)]
Recipe = Literal["default", "fast", "thorough", "associate"]  # graph/recall/config.py RECIPES


class ClientSource(Protocol):
    """The typed GraphQL client for the caller of this tool call."""

    def __call__(self, ctx: Context[Any, Any, Any]) -> AsyncEngramClient: ...


class EngramMCP(FastMCP[Any]):
    """The MCP server, holding where each tool call's client comes from (a tool reads it from its context)."""

    def __init__(self, clients: ClientSource) -> None:
        super().__init__(
            "engram",
            instructions=INSTRUCTIONS,
            streamable_http_path="/mcp",
            stateless_http=True,  # no session affinity: any API process answers any call
            json_response=True,
            # Every request must carry an API key header, which a DNS-rebinding page cannot add without a CORS
            # preflight the API never grants; the Host check would only refuse legitimate deployments.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self.clients = clients


async def _run(ctx: Context[Any, Any, Any], call: Callable[[MemoryTools], Awaitable[T]]) -> T:
    """Run one tool call with the caller's client; the API's refusals become tool errors the agent reads (not
    protocol errors)."""
    server = ctx.fastmcp
    if not isinstance(server, EngramMCP):
        raise TypeError(f"an Engram tool called on another server ({type(server).__name__})")
    try:
        return await call(MemoryTools(server.clients(ctx)))
    except ToolFailure as exc:
        raise ToolError(str(exc)) from exc
    except (GraphQLClientHttpError, GraphQLClientGraphQLMultiError) as exc:
        raise ToolError(str(api_failure(exc))) from exc
    except httpx.TransportError as exc:
        raise ToolError(str(unreachable(exc))) from exc


async def remember(
    ctx: Context[Any, Any, Any],
    text: Annotated[str | None, Field(min_length=1, description="what to remember, in plain words")] = None,
    records: Annotated[
        Records | str | None, Field(description="ingest-format records (a plain string is taken as `text`)")
    ] = None,
    user: UserParam = None,
    session: Annotated[ScopeName, Field(description="the app's session or run id (with `text`)")] = None,
    agent: Annotated[ScopeName, Field(description="the agent remembering it (with `text`)")] = None,
    speaker: Annotated[ScopeName, Field(description="who said it (with `text`; default: the user)")] = None,
    at: Annotated[datetime | None, Field(description="when it was said or happened (with `text`)")] = None,
    id: Annotated[ScopeName, Field(description="your id for it (with `text`): a retry writes nothing new")] = None,
    metadata: Metadata = None,
    wait: Annotated[bool, Field(description="wait for the ingest job to finish")] = False,
    timeout_s: Annotated[float, Field(gt=0, le=600, description="how long to wait, with wait=true")] = 120.0,
) -> JobReport:
    if isinstance(records, str):  # an agent that sends one sentence as `records` means a text
        text, records = (records, None) if text is None else (text, records)
    if (text is None) == (records is None) or isinstance(records, str):
        raise ToolError("give either `text` (a plain string) or `records` (a list of records), not both")
    if records is not None:
        listed = records
        return await _run(ctx, lambda tools: tools.remember(listed, user, wait, timeout_s))
    said, scope = (
        text or "",
        TextScope(user=user, agent=agent, session=session, speaker=speaker, at=at, id=id, metadata=metadata),
    )
    return await _run(ctx, lambda tools: tools.remember_text(said, scope, wait, timeout_s))


async def recall(
    query: Annotated[str, read_parameter(QUERY)],
    ctx: Context[Any, Any, Any],
    memory_types: Annotated[list[MemoryType] | None, read_parameter(MEMORY_TYPES)] = None,
    token_budget: Annotated[int | None, read_parameter(TOKEN_BUDGET)] = None,
    hop_limit: Annotated[int | None, read_parameter(HOP_LIMIT)] = None,
    limit: Annotated[int | None, read_parameter(LIMIT)] = None,
    as_of: Annotated[datetime | None, read_parameter(AS_OF)] = None,
    known_at: Annotated[datetime | None, read_parameter(KNOWN_AT)] = None,
    asker: Annotated[str | None, read_parameter(ASKER)] = None,
    addressee: Annotated[str | None, read_parameter(ADDRESSEE)] = None,
    now: Annotated[datetime | None, read_parameter(NOW)] = None,
    min_relevance: Annotated[float | None, read_parameter(MIN_RELEVANCE)] = None,
    user: UserParam = None,
    recipe: Annotated[Recipe | None, read_parameter(RECIPE)] = None,
) -> RecallAnswer:
    named = {
        "memory_types": memory_types, "token_budget": token_budget, "hop_limit": hop_limit, "limit": limit,
        "as_of": as_of, "known_at": known_at, "asker": asker, "addressee": addressee, "now": now,
        "min_relevance": min_relevance, "user": user, "recipe": recipe,
    }  # fmt: skip
    return await _run(ctx, lambda tools: tools.recall(query, named))


async def associate(
    utterance: Annotated[str, read_parameter(UTTERANCE)],
    ctx: Context[Any, Any, Any],
    now: Annotated[datetime | None, read_parameter(ASSOCIATE_NOW)] = None,
    limit: Annotated[int | None, read_parameter(ASSOCIATE_LIMIT)] = None,
    user: UserParam = None,
    speaker: Annotated[str | None, read_parameter(SPEAKER)] = None,
) -> AssociateAnswer:
    named = {"now": now, "limit": limit, "user": user, "speaker": speaker}
    return await _run(ctx, lambda tools: tools.associate(utterance, named))


async def forget(
    ctx: Context[Any, Any, Any],
    episode_ids: list[str] | None = None,
    source_ids: list[str] | None = None,
    knowledge_ids: Annotated[list[str] | None, Field(description="proposition or prescription ids")] = None,
    user: UserParam = None,
    session: Annotated[ScopeName, Field(description="forget what was said in this session")] = None,
    agent: Annotated[ScopeName, Field(description="forget what was made with this agent")] = None,
    metadata: Metadata = None,
    everything: Annotated[bool, Field(description="with `user` alone: forget that user's whole memory")] = False,
) -> ForgetReport:
    named = bool(episode_ids or source_ids or knowledge_ids or session or agent or metadata)
    if named == everything or (everything and user is None):
        raise ToolError(
            "give ids or a filter (session, agent, metadata) to forget, or everything=true with a user (and "
            "nothing else) to forget that user's whole memory"
        )
    wanted = ForgetScope(
        episode_ids=episode_ids or [], source_ids=source_ids or [], knowledge_ids=knowledge_ids or [],
        agent=agent, session=session, metadata=metadata, user=user,
    )  # fmt: skip
    return await _run(ctx, lambda tools: tools.forget(wanted))


async def correct(
    proposition_id: str,
    text: Annotated[str, Field(min_length=1, max_length=2_000, description="the corrected statement")],
    ctx: Context[Any, Any, Any],
    valid_from: Annotated[datetime | None, Field(description="when the corrected fact became true")] = None,
    reason: str = "",
    user: UserParam = None,
) -> CorrectionReport:
    return await _run(ctx, lambda tools: tools.correct(proposition_id, text, valid_from, reason, user))


async def list_dimensions(ctx: Context[Any, Any, Any], user: UserParam = None) -> list[DimensionSummary]:
    return await _run(ctx, lambda tools: tools.dimensions(user))


async def concept_page(
    key: str,
    ctx: Context[Any, Any, Any],
    first: Annotated[int, Field(ge=1, le=100, description="how many propositions")] = 10,
    user: UserParam = None,
) -> ConceptSummary:
    return await _run(ctx, lambda tools: tools.concept(key, first, user))


async def follow_link(
    node_id: str, link_type: LinkType, ctx: Context[Any, Any, Any], user: UserParam = None
) -> list[LinkedNode]:
    return await _run(ctx, lambda tools: tools.follow(node_id, link_type, user))


async def job_status(job_id: str, ctx: Context[Any, Any, Any]) -> JobReport:
    return await _run(ctx, lambda tools: tools.job(job_id))


async def list_memories(
    ctx: Context[Any, Any, Any],
    user: UserParam = None,
    kinds: Annotated[list[MemoryKind] | None, Field(description="PROPOSITION, PRESCRIPTION, EPISODE")] = None,
    session: ScopeName = None,
    agent: ScopeName = None,
    metadata: Metadata = None,
    since: Annotated[datetime | None, Field(description="from this time (inclusive)")] = None,
    until: Annotated[datetime | None, Field(description="before this time")] = None,
    include_superseded: Annotated[bool, Field(description="also facts a later statement replaced")] = False,
    first: Annotated[int, Field(ge=1, le=100, description="how many on this page")] = 20,
    after: Annotated[str | None, Field(description="`next_cursor` of the page before")] = None,
) -> MemoryList:
    listing = ListScope(user=user, session=session, agent=agent, metadata=metadata, first=first, after=after)
    return await _run(ctx, lambda tools: tools.memories(kinds, since, until, include_superseded, listing))


async def export_memory(
    ctx: Context[Any, Any, Any],
    user: UserParam = None,
    session: ScopeName = None,
    agent: ScopeName = None,
    metadata: Metadata = None,
    first: Annotated[int, Field(ge=1, le=200, description="sources (with vectors: nodes) on this page")] = 50,
    after: Annotated[str | None, Field(description="`next_cursor` of the page before")] = None,
    vectors: Annotated[bool, Field(description="a page of the vectors file instead (a whole memory)")] = False,
) -> ExportPage:
    listing = ListScope(user=user, session=session, agent=agent, metadata=metadata, first=first, after=after)
    return await _run(ctx, lambda tools: tools.export(listing, vectors))


async def profile(
    user: Annotated[str, Field(min_length=1, max_length=200, description="whose profile: a user of the space")],
    ctx: Context[Any, Any, Any],
    subject: Annotated[
        str | None,
        Field(min_length=1, max_length=200, description="only this subject (as memory names it); null: all"),
    ] = None,
) -> ProfileAnswer:
    return await _run(ctx, lambda tools: tools.profile(user, subject))


@dataclass(frozen=True)
class ToolDefinition:
    """One memory tool: the function (its parameters are the tool's input schema) and what the agent reads about it."""

    function: Callable[..., Awaitable[Any]]
    description: str


TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        remember,
        "Store in memory either one `text` (a plain string: a turn of the user's running conversation, "
        "spoken by the user unless `speaker` says otherwise, at `at` or now; over-long text is split into passages) "
        "or `records` (conversation sessions with turns, documents, agent trajectories, validated whole). An ingest "
        "job then extracts knowledge in the background; the answer lists the ids it writes (pass them, or your own "
        "`id`, to `forget`). With wait=true the call returns when the job has finished (or timeout_s passed).",
    ),
    ToolDefinition(
        recall,
        "Recall what memory knows for a query: propositions (facts), prescriptions (how-to) and episodes, "
        "best first, each with its score and the episodes that prove it; `context` is the same as compact text. "
        "memory_types restricts the kinds (default: routed from the query); as_of answers as memory stood then; "
        "asker and addressee name who the query's I/my and you/your are, as they speak in memory; now is when the "
        "query is asked, so that its 'two weeks ago' or 'last weekend' can be read. Each item has a relevance in "
        "[0, 1]; items below min_relevance are left out, and when none is left, `reason` says what memory lacks "
        "(answer that you do not know). A question that counts, adds up or compares over time ('how many times', "
        "'how much in total', 'more this week than last') also gets `aggregate`: the count, the sum with its unit and "
        "per-period figures over every matching memory, each event with its proofs, or the reason there is no number.",
    ),
    ToolDefinition(
        associate,
        "Bring up what memory holds that bears on what the user just said (a remark, not a question: "
        "'It's Wednesday night again'): the memories worth mentioning, best first, each with why (a concept it "
        "shares, the same weekday or time of day, the feeling voiced, a habit's parts, two hops through associated "
        "concepts). Nothing, with a reason, when nothing bears on it: then say nothing about memory. now is when it "
        "is said, on the user's clock; speaker is the user's name as they speak in memory (their own words first).",
    ),
    ToolDefinition(
        forget,
        "Forget episodes, whole sources (a conversation session, a document, a trajectory) or pieces of "
        "knowledge by id (the internal ids, or your own given at ingest: a record id, 'record/session', a turn id, "
        "'record/session/turn'), or everything said in a session, by an agent or with some metadata. Knowledge "
        "proven only by forgotten episodes goes with them. everything=true with a user and nothing else forgets "
        "that user's whole memory. Returns what was removed.",
    ),
    ToolDefinition(
        correct,
        "Correct a fact: the new statement supersedes the proposition (which stays as history and keeps "
        "answering `recall` with an earlier as_of). Use the proposition id from `recall`.",
    ),
    ToolDefinition(
        list_dimensions,
        "The dimensions of memory (communities of concepts), largest first, with top concepts.",
    ),
    ToolDefinition(
        concept_page,
        "A concept page by key: the concept, its dimension, associated concepts, aliases and its first "
        "propositions (ids you can pass to follow_link, correct or forget).",
    ),
    ToolDefinition(
        follow_link,
        "Follow one type of link from any node: PROVEN_BY (a fact's evidence), MENTIONS, NEXT (what came "
        "after an episode), SUPERSEDES, ASSOCIATED (related concepts) and the other link types of the schema.",
    ),
    ToolDefinition(
        job_status,
        "An ingest job's state, stage, progress and counts (from `remember`).",
    ),
    ToolDefinition(
        list_memories,
        "List what a memory keeps, newest first, a page at a time: facts and procedures (kinds "
        "PROPOSITION, PRESCRIPTION; the default) and what was said or done (EPISODE), each with the app's ids of "
        "the episodes and sources it comes from; filtered by session, agent, metadata and time.",
    ),
    ToolDefinition(
        profile,
        "What memory believes about a user now, and what it believed before: for each subject (the user first, "
        "then the people and things they told of) and each slot (home, employer, partner, ...), the fact that holds "
        "now with its value, since when and the episode that told it, and the earlier versions it replaced, with "
        "when they stopped holding. A slot with no current fact ended ('I sold my car'). Events are not listed "
        "(use recall). `context` is the same as a line per slot. An unknown user has an empty profile.",
    ),
    ToolDefinition(
        export_memory,
        "Export a memory (or what matches session, agent and metadata in it) as JSONL in the ingest "
        "format, a page of sources at a time: the records `remember` takes back. With vectors=true, a page of the "
        "whole memory's vectors file instead (`first` nodes; `engram import --bulk` loads it with no model).",
    ),
)


def build_mcp_server(clients: ClientSource) -> FastMCP[Any]:
    """The server with every memory tool registered; the transports are chosen by the caller."""
    server = EngramMCP(clients)
    for tool in TOOLS:
        server.add_tool(tool.function, description=tool.description)
    return server
