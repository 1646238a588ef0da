"""The commands an app developer uses, as clients of the GraphQL API: `engram remember`, `recall`, `forget`, `list`
and `export` (`import` and `ingest` are in app/cli/ingest_command.py). Each sends the operations of graphql/operations/
with the key given (--api-key or ENGRAM_API_KEY) to the API (--url or ENGRAM_URL): no model, no graph driver in this
process, so a command answers as fast as the API does."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.cli.api_client import ApiClient, expect
from app.cli.client_options import (
    AgentOption,
    KeyOption,
    MetadataOption,
    SessionOption,
    SpaceCheck,
    UrlOption,
    UserOption,
    api_time,
    failures,
    open_client,
    parse_metadata,
    where,
)
from app.cli.client_settings import EXPORT_PAGE_NODES, EXPORT_PAGE_SOURCES, LIST_PAGE
from app.cli.read_options import checked_variables, read_option, read_text
from graph.recall.arguments import (
    ADDRESSEE,
    AS_OF,
    ASKER,
    HOP_LIMIT,
    KNOWN_AT,
    LIMIT,
    MEMORY_TYPES,
    MIN_RELEVANCE,
    NOW,
    QUERY,
    RECALL_ARGUMENTS,
    RECIPE,
    TOKEN_BUDGET,
    MemoryType,
)

console = Console()


def remember(
    text: Annotated[str, typer.Argument(help="what to remember, in plain words")],
    user: UserOption = None,
    session: SessionOption = None,
    agent: AgentOption = None,
    speaker: Annotated[str | None, typer.Option(help="who said it (default: the user)")] = None,
    at: Annotated[datetime | None, typer.Option(help="when it was said or happened (default: now)")] = None,
    memory_id: Annotated[str | None, typer.Option("--id", help="your id for it: a retry writes nothing new")] = None,
    metadata: MetadataOption = None,
    wait: Annotated[bool, typer.Option("--wait/--no-wait", help="wait until it can be recalled")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Remember TEXT: a turn of the user's running conversation (an over-long text is split into passages)."""
    from app.cli.ingest_command import follow_jobs, summary

    with failures(console):
        variables = {
            "text": text, "user": user, "session": session, "agent": agent, "speaker": speaker,
            "at": api_time(at), "id": memory_id, "metadata": parse_metadata(metadata),
        }  # fmt: skip
        with open_client(url, api_key, space) as client:
            job = expect(client.call("remember", variables)["remember"], "Job")
            for source in job["sources"]:
                ids = ", ".join(f"{e['externalId']} ({e['id']})" for e in source["episodes"])
                console.print(f"job {job['id']}: {source['externalId']} ({source['id']}): {ids}", highlight=False)
            if wait:
                done = follow_jobs(client, [job["id"]], console)
                console.print(summary(f"remembered in {where(user)}", done), highlight=False)
                if any(j["state"] != "SUCCEEDED" for j in done):
                    raise typer.Exit(1)
            else:
                console.print(f"queued for {where(user)}: recallable once job {job['id']} finishes (or use --wait)")


def recall(
    query: Annotated[str, read_text(QUERY)],
    user: UserOption = None,
    token_budget: Annotated[int | None, read_option(TOKEN_BUDGET, "--token-budget", "--budget")] = None,
    hop_limit: Annotated[int | None, read_option(HOP_LIMIT, "--hop-limit", "--hops")] = None,
    limit: Annotated[int | None, read_option(LIMIT)] = None,
    memory_type: Annotated[list[MemoryType] | None, read_option(MEMORY_TYPES, "--memory-type")] = None,
    trace: Annotated[bool, typer.Option("--trace/--no-trace", help="print the explanation trace")] = False,
    asker: Annotated[str | None, read_option(ASKER)] = None,
    addressee: Annotated[str | None, read_option(ADDRESSEE)] = None,
    now: Annotated[datetime | None, read_option(NOW)] = None,
    as_of: Annotated[datetime | None, read_option(AS_OF)] = None,
    known_at: Annotated[datetime | None, read_option(KNOWN_AT)] = None,
    min_relevance: Annotated[float | None, read_option(MIN_RELEVANCE)] = None,
    recipe: Annotated[str | None, read_option(RECIPE)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the API's answer as JSON")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Recall knowledge for QUERY: items with scores and the episodes that prove them. Options left out take the API's
    defaults."""
    from app.cli.recall_command import print_recall

    with failures(console):
        values = {
            "query": query, "token_budget": token_budget, "hop_limit": hop_limit, "limit": limit, "asker": asker,
            "memory_types": [kind.value.upper() for kind in memory_type] if memory_type else None,
            "addressee": addressee, "now": api_time(now), "as_of": api_time(as_of), "known_at": api_time(known_at),
            "min_relevance": min_relevance, "recipe": recipe,
        }  # fmt: skip
        variables = {"user": user, **checked_variables(RECALL_ARGUMENTS, values)}
        with open_client(url, api_key, space) as client:
            answer = expect(client.call("recall", variables)["recall"], "Recall")
        if as_json:
            print(json.dumps(answer, indent=2, ensure_ascii=False))
            return
        print_recall(console, answer, query, where(user, space), trace)


def forget(
    source: Annotated[
        list[str] | None,
        typer.Option("--source", help="a source: your record id, 'record/session', or an internal id (repeatable)"),
    ] = None,
    episode: Annotated[
        list[str] | None,
        typer.Option("--episode", help="an episode: your turn id, 'record/session/turn', or an internal id"),
    ] = None,
    knowledge: Annotated[
        list[str] | None, typer.Option("--knowledge", help="a proposition or prescription id (its episodes stay)")
    ] = None,
    user: UserOption = None,
    session: Annotated[str | None, typer.Option("--session", help="forget what was said in this session")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="forget what was made with this agent")] = None,
    metadata: MetadataOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="with --user alone: forget it all without asking")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Forget by ids (yours or Engram's), or what a session, an agent or metadata marks; with --user alone, that
    user's whole memory. Knowledge proven only by forgotten episodes goes with them."""
    with failures(console):
        filters = {"session": session, "agent": agent, "metadata": parse_metadata(metadata)}
        ids = {"sourceIds": source or [], "episodeIds": episode or [], "knowledgeIds": knowledge or []}
        if not any(ids.values()) and not any(v is not None for v in filters.values()):
            if user is None:
                raise ValueError("give --source, --episode, --knowledge, --session, --agent or --metadata (or --user)")
            if not yes and not typer.confirm(f"forget the whole memory of user {user!r}?", default=False):
                raise ValueError("nothing forgotten (answer y, or pass --yes)")
        with open_client(url, api_key, space) as client:
            gone = expect(client.call("forget", {**ids, **filters, "user": user})["forget"], "Forgotten")
        if gone.get("episodesRemoved") is not None:
            console.print(
                f"forgot the memory of user {user!r}: {gone['episodesRemoved']} episodes, "
                f"{gone['knowledgeRemoved']} facts and procedures, {gone['conceptsRemoved']} concepts"
                + (
                    f"; stopped {len(gone['stoppedJobIds'])} ingest job(s) in flight"
                    if gone.get("stoppedJobIds")
                    else ""
                ),
                highlight=False,
            )
            return
        console.print(
            f"forgot from {where(user)}: {len(gone['sourceIds'])} sources, {len(gone['episodeIds'])} episodes, "
            f"{len(gone['knowledgeIds'])} facts and procedures, {gone['conceptsRemoved']} concepts",
            highlight=False,
        )
        if gone["notFound"]:
            console.print(f"[red]not found:[/red] {escape(', '.join(gone['notFound']))}", highlight=False)
            raise typer.Exit(1)


class Listing(StrEnum):
    MEMORIES = "memories"
    SOURCES = "sources"
    USERS = "users"


class Kind(StrEnum):
    PROPOSITION = "proposition"
    PRESCRIPTION = "prescription"
    EPISODE = "episode"


def list_command(
    what: Annotated[Listing, typer.Argument(help="memories (facts, procedures, episodes), sources or users")] = (
        Listing.MEMORIES
    ),
    user: UserOption = None,
    kind: Annotated[
        list[Kind] | None, typer.Option("--kind", "-k", help="memories of this kind (default: facts and procedures)")
    ] = None,
    session: SessionOption = None,
    agent: AgentOption = None,
    metadata: MetadataOption = None,
    since: Annotated[datetime | None, typer.Option(help="memories from this time on")] = None,
    until: Annotated[datetime | None, typer.Option(help="memories before this time")] = None,
    superseded: Annotated[bool, typer.Option("--superseded", help="memories: also facts a later one replaced")] = False,
    limit: Annotated[int, typer.Option(min=1, help="at most this many, newest first")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """List a memory's memories (what it knows, or what was said with --kind episode), its sources or the space's
    users."""
    with failures(console):
        scope = {"user": user, "session": session, "agent": agent, "metadata": parse_metadata(metadata)}
        with open_client(url, api_key, space) as client:
            if what is Listing.USERS:
                rows = client.call("users")["users"][:limit]
                total = len(rows)
            elif what is Listing.SOURCES:
                rows, total = _pages(client, "sources", scope, limit)
            else:
                kinds = [k.value.upper() for k in kind] if kind else None
                listed = {**scope, "kinds": kinds, "since": api_time(since), "until": api_time(until)}
                rows, total = _pages(client, "memories", listed | {"includeSuperseded": superseded}, limit)
        if as_json:
            for row in rows:
                print(json.dumps(row, ensure_ascii=False))
            return
        _print_listing(what, rows, total, where(user, space))


def _pages(client: ApiClient, name: str, variables: dict[str, Any], limit: int) -> tuple[list[dict[str, Any]], int]:
    """The first `limit` nodes of a connection, page by page, and its total count."""
    rows: list[dict[str, Any]] = []
    after = None
    while True:
        page = client.call(name, {**variables, "first": min(LIST_PAGE, limit - len(rows)), "after": after})[name]
        rows += [edge["node"] for edge in page["edges"]]
        after = page["pageInfo"]["endCursor"]
        if len(rows) >= limit or not page["pageInfo"]["hasNextPage"]:
            return rows, int(page["totalCount"] or 0)


def _print_listing(what: Listing, rows: list[dict[str, Any]], total: int, memory: str) -> None:
    if what is Listing.USERS:
        for row in rows:
            console.print(escape(row["user"]), highlight=False)
        return
    table = Table(title=f"{what.value} of {memory} ({len(rows)} of {total})")
    if what is Listing.SOURCES:
        for column in ("id", "kind", "session", "agent", "episodes", "created", "metadata"):
            table.add_column(column)
        for row in rows:
            table.add_row(
                escape(row["externalId"]), row["kind"], escape(row["session"] or ""), escape(row["agent"] or ""),
                str(row["episodes"]), row["createdAt"] or "", escape(json.dumps(row["metadata"] or {})),
            )  # fmt: skip
    else:
        for column in ("kind", "text", "at", "status", "from (your ids)", "id"):
            table.add_column(column)
        for row in rows:
            origins = ", ".join(
                f"{o['sourceExternalId']}/{o['episodeExternalId']}" if o["sourceExternalId"] else o["episodeExternalId"]
                for o in row["origins"]
            )
            table.add_row(
                row["kind"].lower(), escape(row["text"]), row["at"] or "", row["status"], escape(origins), row["id"]
            )
    console.print(table)


def export(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", dir_okay=False, help="the JSONL file to write [default: stdout]")
    ] = None,
    user: UserOption = None,
    session: SessionOption = None,
    agent: AgentOption = None,
    metadata: MetadataOption = None,
    page: Annotated[int, typer.Option(min=1, max=200, help="sources per request")] = EXPORT_PAGE_SOURCES,
    vectors: Annotated[
        bool,
        typer.Option(
            "--vectors",
            help="also write OUT.vectors.jsonl: the whole memory's vectors and derived knowledge, which "
            "`engram import --bulk OUT.vectors.jsonl --space S` loads into the empty space with no model",
        ),
    ] = False,
    space: SpaceCheck = None,
    url: UrlOption = None,
    api_key: KeyOption = None,
) -> None:
    """Export a memory (or what a session, an agent or metadata marks in it) as JSONL in the ingest format, every
    page: `engram import` of the file restores it. With --vectors, also its vectors file (docs/embedding.md)."""
    said = Console(stderr=True) if out is None else console  # the JSONL alone goes to stdout
    with failures(said):
        if vectors and out is None:
            raise ValueError("--vectors writes a second file beside --out: name the export's file with --out")
        if vectors and (session or agent or metadata):
            raise ValueError("--vectors exports a whole memory: drop --session, --agent and --metadata")
        scope = {"user": user, "session": session, "agent": agent, "metadata": parse_metadata(metadata)}
        with open_client(url, api_key, space) as client:
            first = client.call("export", {**scope, "first": page})["export"]
            if first["totalSources"] == 0:
                said.print(f"[red]error:[/red] nothing to export: {escape(where(user, space))} holds no sources")
                raise typer.Exit(1)
            lines = _export_pages(client, scope, page, first, said)
            if vectors and out is not None:
                _export_vectors(client, user, vectors_path(out), said)
        if out is None:
            sys.stdout.write(lines)
        else:
            out.write_text(lines, encoding="utf-8")
        target = "stdout" if out is None else str(out)
        said.print(f"exported {lines.count(chr(10))} records of {where(user, space)} to {target}", highlight=False)


def _export_pages(client: ApiClient, scope: dict[str, Any], page: int, first: dict[str, Any], said: Console) -> str:
    """Every page's JSONL, in order, with a progress bar over the sources."""
    chunks = [first["jsonl"]]
    current = first
    with Progress(
        TextColumn("[bold]export"), BarColumn(), MofNCompleteColumn(), TextColumn("sources"), TimeElapsedColumn(),
        console=said,
    ) as progress:  # fmt: skip
        bar = progress.add_task("export", total=first["totalSources"], completed=first["sources"])
        while current["endCursor"] is not None:
            current = client.call("export", {**scope, "first": page, "after": current["endCursor"]})["export"]
            chunks.append(current["jsonl"])
            progress.advance(bar, current["sources"])
    return merged_pages(chunks)


def vectors_path(out: Path) -> Path:
    return out.with_name(out.name + ".vectors.jsonl")


def _export_vectors(client: ApiClient, user: str | None, target: Path, said: Console) -> None:
    """Every page of `exportVectors` into `target` (written beside it, then renamed: never half a file)."""
    partial = target.with_name(target.name + ".partial")
    with partial.open("w", encoding="utf-8") as handle, Progress(
        TextColumn("[bold]vectors"), BarColumn(), MofNCompleteColumn(), TextColumn("nodes"), TimeElapsedColumn(),
        console=said,
    ) as progress:  # fmt: skip
        current = client.call("export_vectors", {"user": user, "first": EXPORT_PAGE_NODES})["exportVectors"]
        bar = progress.add_task("vectors", total=current["totalNodes"], completed=current["nodes"])
        handle.write(current["jsonl"])
        while current["endCursor"] is not None:
            after = current["endCursor"]
            current = client.call("export_vectors", {"user": user, "first": EXPORT_PAGE_NODES, "after": after})
            current = current["exportVectors"]
            handle.write(current["jsonl"])
            progress.advance(bar, current["nodes"])
    partial.replace(target)
    said.print(f"wrote the vectors file {target}", highlight=False)


def merged_pages(chunks: list[str]) -> str:
    """The pages' records, one per line, a conversation whose sessions fell on two pages made one record again (as
    the API does within a page, for sessions of the same scope): two records naming one session are refused."""
    records: list[dict[str, Any]] = []
    conversations: dict[tuple[str, str], dict[str, Any]] = {}
    for chunk in chunks:
        for line in chunk.splitlines():
            record = json.loads(line)
            if record.get("type") == "conversation":
                scope = {k: record.get(k) for k in ("user", "agent", "session", "metadata")}
                key = (record["id"], json.dumps(scope, sort_keys=True))
                if key in conversations:
                    conversations[key]["sessions"] += record["sessions"]
                    continue
                conversations[key] = record
            records.append(record)
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
