"""Mutations: ingest (a job on the workers), forget with cascade, spaces and API keys.

Nothing is extracted inline: ingest validates the whole payload, then queues a job and returns it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Annotated

import strawberry
from pydantic import ValidationError
from strawberry.file_uploads import Upload
from strawberry.scalars import JSON

from app.api.errors import Forbidden, InvalidArgument, KeyLimit, TooManyRequests
from app.api.schema.admin_types import ApiKey, IssuedApiKey, SpaceCreated, SpaceExists
from app.api.schema.job_types import Job
from app.api.schema.nodes import Info
from app.api.schema.outcomes import InvalidInput, NotFound, OverBudget, invalid
from app.api.schema.scope_args import UserArg, scope_filter
from app.api.security import RateLimited, RateLimiter
from engram.formats.loading import InputFormat, parse_payload, validate_records
from engram.formats.loading import InvalidInput as InvalidRecords
from engram.formats.records import MAX_DOCUMENT_CHARS, MAX_RECORDS_PER_JOB, Record
from engram.ids import validate_space
from engram.remember import remember_record
from graph.api_keys import KeyLimitReached, KeyRole, RevokeRefused, check_label
from graph.cascade_delete import ForgetResult
from workers.jobs import PendingLimit
from workers.tasks.ingest import submit_ingest

strawberry.enum(InputFormat, description="How `payload` is written")
MAX_FORGET_IDS = 1_000
log = logging.getLogger("engram.api")


@strawberry.input(description="Either `records` (JSON) or `payload` (text in `format`), not both.")
class IngestInput:
    records: JSON | None = strawberry.field(
        default=None, description="a record or a list of records: conversation, document or trajectory"
    )
    payload: str | None = strawberry.field(default=None, description="a JSON or JSONL document as text")
    format: InputFormat = InputFormat.JSONL


@strawberry.input(
    description="What to forget: ids (internal, or the app's own given at ingest), or what matches agent, session and "
    "metadata. Knowledge proven only by forgotten episodes goes with them."
)
class ForgetInput:
    episode_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="episode ids, the app's turn ids ('s2-3', refused where several sources have it) or "
        "'record/session/turn'",
    )
    source_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="source ids, or the app's record ids ('client-chat': every session of it) or 'record/session'",
    )
    knowledge_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list, description="propositions or prescriptions themselves (their episodes stay)"
    )
    agent: str | None = strawberry.field(default=None, description="forget what was made with this agent")
    session: str | None = strawberry.field(default=None, description="forget what was said in this session")
    metadata: JSON | None = strawberry.field(default=None, description="forget what carries this metadata (exact)")


@strawberry.type(description="What a forget request removed.")
class Forgotten:
    episode_ids: list[strawberry.ID]
    knowledge_ids: list[strawberry.ID]
    source_ids: list[strawberry.ID]
    intent_ids: list[strawberry.ID]
    concepts_removed: int
    not_found: list[strawberry.ID] = strawberry.field(description="ids asked for that were not in this memory")
    episodes_removed: int | None = strawberry.field(
        default=None, description="when a user's whole memory went: how many episodes (the ids are not listed)"
    )
    knowledge_removed: int | None = strawberry.field(
        default=None, description="when a user's whole memory went: how many propositions and prescriptions"
    )
    stopped_job_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="ingest jobs of a user's whole memory stopped unfinished: they write nothing, and are gone. A job "
        "still running for forgotten sessions, sources or matches writes none of what was forgotten.",
    )


IngestPayload = Annotated[Job | InvalidInput | OverBudget, strawberry.union("IngestPayload")]
ForgetPayload = Annotated[Forgotten | InvalidInput | OverBudget, strawberry.union("ForgetPayload")]
CreateSpacePayload = Annotated[SpaceCreated | SpaceExists | InvalidInput, strawberry.union("CreateSpacePayload")]
RevokePayload = Annotated[ApiKey | NotFound, strawberry.union("RevokeApiKeyPayload")]


async def _queue(info: Info, space: str, records: list[Record]) -> IngestPayload:
    """Queue validated records as a job of `space` (a memory space: the caller's or one of its users')."""
    services = info.context.services
    try:
        job_id = await asyncio.to_thread(
            submit_ingest, space, records, services.jobs, services.settings.api.max_pending_ingest_bytes
        )
    except PendingLimit as exc:
        return OverBudget(message=str(exc), limit=exc.limit, requested=exc.pending + exc.size)
    log.info("ingest job %s queued: %d records", job_id, len(records))
    status = await asyncio.to_thread(services.jobs.status, job_id)
    return await asyncio.to_thread(Job.queued, status, records)


async def _forget_user(info: Info, space: str) -> Forgotten:
    """A user's whole memory: every node of their partition, their jobs in flight, and what Redis holds of it
    (workers/scope_deletion.py)."""
    erased = await asyncio.to_thread(info.context.services.deletion.whole, space, [], False)
    return Forgotten(
        episode_ids=[], knowledge_ids=[], source_ids=[], intent_ids=[], concepts_removed=erased.concepts,
        not_found=[], episodes_removed=erased.episodes, knowledge_removed=erased.knowledge,
        stopped_job_ids=[strawberry.ID(i) for i in erased.stopped_jobs],
    )  # fmt: skip


def _records(data: IngestInput) -> list[Record]:
    if (data.records is None) == (data.payload is None):
        raise InvalidRecords(["give exactly one of `records` and `payload`"])
    if data.payload is not None:
        return parse_payload(data.payload, InputFormat(data.format.value))
    raw = data.records if isinstance(data.records, list) else [data.records]
    return validate_records(raw)


@strawberry.type
class MemoryMutation:
    @strawberry.mutation(
        description="Validate a payload whole and queue it as an ingest job (nothing partial). Records may name a "
        "`user` (whose memory they go to; one user per request), `agent`, `session` and `metadata`."
    )
    async def ingest(self, info: Info, input: IngestInput) -> IngestPayload:
        info.context.require(KeyRole.WRITER)
        if isinstance(input.records, list) and len(input.records) > MAX_RECORDS_PER_JOB:
            return OverBudget(
                message=f"{len(input.records)} records in one job; the limit is {MAX_RECORDS_PER_JOB}",
                limit=MAX_RECORDS_PER_JOB,
                requested=len(input.records),
            )
        try:  # in a thread: validating 10,000 records takes long enough to stall every other request on the loop
            records = await asyncio.to_thread(_records, input)
        except InvalidRecords as exc:
            return invalid(exc.errors)
        users = sorted({r.user for r in records}, key=lambda u: u or "")
        if len(users) > 1:
            return invalid([f"records name {len(users)} users ({', '.join(repr(u) for u in users)}): one per request"])
        return await _queue(info, info.context.for_user(users[0]), records)

    @strawberry.mutation(
        description="Remember one text: a turn of the scope's running conversation (user, agent, session), spoken by "
        "the user unless `speaker` says otherwise, at `at` (now by default). An over-long text is split into "
        "passages. Give `id` (or `at`) to make a retry write nothing new."
    )
    async def remember(
        self,
        info: Info,
        text: str,
        user: UserArg = None,
        agent: str | None = None,
        session: str | None = None,
        speaker: str | None = None,
        at: datetime | None = None,
        id: Annotated[str | None, strawberry.argument(description="the app's id for this memory")] = None,
        metadata: Annotated[
            JSON | None, strawberry.argument(description="a flat map of strings, numbers and booleans")
        ] = None,
    ) -> IngestPayload:
        info.context.require(KeyRole.WRITER)
        space = info.context.for_user(user)
        if len(text) > MAX_DOCUMENT_CHARS:
            return OverBudget(
                message=f"text of {len(text)} characters; the limit is {MAX_DOCUMENT_CHARS}",
                limit=MAX_DOCUMENT_CHARS,
                requested=len(text),
            )
        if not text.strip():
            return invalid(["text: empty; give something to remember"])
        if metadata is not None and not isinstance(metadata, dict):
            return invalid(["metadata: an object of strings, numbers and booleans"])
        try:
            record = remember_record(
                text, user=user, agent=agent, session=session, speaker=speaker, at=at, memory_id=id,
                metadata=metadata or {},
            )  # fmt: skip
        except ValidationError as exc:
            return invalid([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)])
        return await _queue(info, space, [record])

    @strawberry.mutation(
        description="Ingest an uploaded file (GraphQL multipart request): JSON or JSONL, validated whole."
    )
    async def ingest_file(self, info: Info, file: Upload, format: InputFormat = InputFormat.JSONL) -> IngestPayload:
        raw = await file.read() if hasattr(file, "read") else bytes(file)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return invalid(["file: not UTF-8 text"])
        payload: IngestPayload = await MemoryMutation.ingest(self, info, IngestInput(payload=text, format=format))
        return payload

    @strawberry.mutation(
        description="Forget episodes, sources or knowledge (by internal or the app's own ids), or what matches "
        "agent, session and metadata, with cascade; with `user` and nothing else, that user's whole memory. "
        "Returns what went."
    )
    async def forget(self, info: Info, input: ForgetInput | None = None, user: UserArg = None) -> ForgetPayload:
        info.context.require(KeyRole.WRITER)
        space = info.context.for_user(user)
        wanted = input or ForgetInput()
        asked = [*wanted.episode_ids, *wanted.source_ids, *wanted.knowledge_ids]
        scope = scope_filter(wanted.agent, wanted.session, wanted.metadata)
        filtered = scope.agent is not None or scope.session is not None or bool(scope.metadata)
        if asked and filtered:
            return invalid(["give ids or a filter (agent, session, metadata), not both"])
        if len(asked) > MAX_FORGET_IDS:
            return OverBudget(
                message=f"{len(asked)} ids; the limit is {MAX_FORGET_IDS}", limit=MAX_FORGET_IDS, requested=len(asked)
            )
        deletion = info.context.services.deletion
        if not asked and not filtered:
            if user is None:
                return invalid(["give ids, a filter (agent, session, metadata) or a user whose memory to forget"])
            return await _forget_user(info, space)
        results: list[ForgetResult] = []
        not_found: list[str] = []
        if filtered:
            results.append(await asyncio.to_thread(deletion.matching, space, scope))
        else:
            named = await asyncio.to_thread(
                deletion.named,
                space,
                [str(i) for i in wanted.source_ids],
                [str(i) for i in wanted.episode_ids],
                [str(i) for i in wanted.knowledge_ids],
            )
            if named.ambiguous:
                return invalid(
                    [f"episode id {r!r} names episodes of several sources: give 'record/session/turn'"
                     for r in named.ambiguous]
                )  # fmt: skip
            results, not_found = named.results, named.not_found
        info.context.extra_queries += 3 * len(results) + 1
        return Forgotten(
            episode_ids=[strawberry.ID(i) for r in results for i in r.episodes],
            knowledge_ids=[strawberry.ID(i) for r in results for i in r.knowledge],
            source_ids=[strawberry.ID(i) for r in results for i in r.sources],
            intent_ids=[strawberry.ID(i) for r in results for i in r.intents],
            concepts_removed=sum(r.concepts_removed for r in results),
            not_found=[strawberry.ID(i) for i in not_found],
        )

    @strawberry.mutation(
        description="Admin only: create a space and issue its first key. An existing space answers SpaceExists."
    )
    async def create_space(self, info: Info, name: str, key_label: str = "") -> CreateSpacePayload:
        info.context.require_admin()
        try:
            validate_space(name)
            check_label(key_label)
        except ValueError as exc:
            return invalid([str(exc)])
        keys = info.context.services.keys
        if not await asyncio.to_thread(keys.create_space, name):
            # The admin key creates spaces; it must not open an existing tenant's data with a fresh key.
            message = (
                f"space {name!r} already exists; no key was issued: its keys come from its own key holders "
                "(createApiKey) or the operator's shell (engram keys create)"
            )
            return SpaceExists(message=message, space=name)
        issued = await asyncio.to_thread(keys.issue, name, key_label)
        return SpaceCreated(space=name, key=IssuedApiKey.of(issued))

    @strawberry.mutation(
        description="Issue another key for the caller's space (e.g. to rotate keys: mint the new one, then revoke the "
        "old one with itself). `role` defaults to the caller's and may not exceed it; a space holds a capped number "
        "of active keys, minted under their own rate limit."
    )
    async def create_api_key(self, info: Info, label: str = "", role: KeyRole | None = None) -> IssuedApiKey:
        space, caller = info.context.key_space, info.context.caller
        assert caller is not None and caller.role is not None  # a space's key: `space` refused anything else
        wanted = role or caller.role
        try:
            check_label(label)
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        if wanted.rank > caller.role.rank:
            raise Forbidden(f"a {caller.role.value} key cannot mint a key of role {wanted.value} (above its own)")
        services = info.context.services
        api = services.settings.api
        mints = RateLimiter(services.redis, api.key_mints_per_hour, 3600, "engram:mint")
        try:
            await asyncio.to_thread(mints.check, space, f"{api.key_mints_per_hour} keys minted this hour")
        except RateLimited as exc:
            raise TooManyRequests(str(exc), exc.retry_after_s) from exc
        keys = services.keys
        try:
            issued = await asyncio.to_thread(
                keys.issue, space, label, wanted, caller.key_id, api.max_active_keys_per_space
            )
        except KeyLimitReached as exc:
            raise KeyLimit(str(exc)) from exc
        return IssuedApiKey.of(issued)

    @strawberry.mutation(
        description="Revoke a key of the caller's space; it stops working at once, and so do the keys minted from "
        "it unless a key revokes itself. A key revokes itself and what it minted; an owner key any key of the space "
        "but those it was minted from."
    )
    async def revoke_api_key(self, info: Info, id: strawberry.ID) -> RevokePayload:
        space, caller = info.context.key_space, info.context.caller
        assert caller is not None
        try:
            revoked = await asyncio.to_thread(info.context.services.keys.revoke, space, str(id), caller.key_id)
        except RevokeRefused as exc:
            raise Forbidden(str(exc)) from exc
        if revoked is None:
            return NotFound(message=f"no API key {id!r} in this space", id=str(id))
        return ApiKey.of(revoked)
