"""The demo as a frontend would do it: everything through the GraphQL API over HTTP and graphql-transport-ws.

    python -m app.demos.api_demo --space demo examples/sample.jsonl "What did Maya make for her sister?" ...

Issues a key for the space, ingests the file with the `ingest` mutation, follows the job over the
`jobProgress` subscription with a progress bar, then asks each question with the `recall` query and prints
the answers with the episodes that prove them, and brings memories up for each `--remark` with `associate`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
import websockets
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.cli.associate_command import print_associations
from app.cli.recall_command import aggregate_line
from engram.assets import OPERATIONS as OPERATIONS_ASSET
from engram.assets import asset_dir
from engram.settings import get_settings
from graph.api_keys import ApiKeyStore
from graph.driver import get_driver

OPERATIONS = asset_dir(OPERATIONS_ASSET)  # graphql/operations, shipped in the package
console = Console()


def _operation(name: str) -> str:
    return (OPERATIONS / f"{name}.graphql").read_text(encoding="utf-8")


def _post(http: httpx.Client, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    response = http.post("/graphql", json={"query": query, "variables": variables})
    payload: dict[str, Any] = response.json()
    if response.status_code != 200 or payload.get("errors"):
        raise RuntimeError(f"GraphQL error ({response.status_code}): {payload.get('errors')}")
    return payload["data"]  # type: ignore[no-any-return]


async def _follow(url: str, key: str, job_id: str) -> dict[str, Any]:
    subprotocol = websockets.Subprotocol("graphql-transport-ws")
    async with websockets.connect(url, subprotocols=[subprotocol]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key}}))
        await ws.recv()
        payload = {"query": _operation("job_progress"), "variables": {"id": job_id}}
        await ws.send(json.dumps({"id": uuid.uuid4().hex, "type": "subscribe", "payload": payload}))
        last: dict[str, Any] = {}
        with Progress(
            TextColumn("[bold]ingest"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
            TextColumn("{task.fields[stage]}"), TimeElapsedColumn(), console=console,
        ) as progress:  # fmt: skip
            bar = progress.add_task("ingest", total=1.0, stage="queued")
            while True:
                message = json.loads(await ws.recv())
                if message["type"] != "next":
                    return last
                last = message["payload"]["data"]["jobProgress"]
                progress.update(bar, completed=last["fraction"], stage=last["stage"].lower())


def demo(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL records to ingest")],
    questions: Annotated[list[str], typer.Argument(help="questions to recall answers for")],
    space: Annotated[str, typer.Option("--space", "-s")] = "demo",
    budget: Annotated[int, typer.Option(help="token budget per answer")] = 256,
    remarks: Annotated[
        list[str] | None, typer.Option("--remark", help="a remark to bring memories up for (associate)")
    ] = None,
) -> None:
    settings = get_settings()
    base = f"http://{settings.api.host}:{settings.api.port}"
    store = ApiKeyStore(get_driver(), settings.neo4j.database)
    store.create_space(space)
    key = store.issue(space, "demo").secret
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=120) as http:
        records = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
        job = _post(http, _operation("ingest"), {"records": records})["ingest"]
        if job["__typename"] != "Job":
            raise typer.BadParameter(f"{job['message']}")
        console.print(f"POST {base}/graphql  mutation ingest -> job {job['id']} ({len(records)} records)")
        done = asyncio.run(_follow(f"ws://{settings.api.host}:{settings.api.port}/graphql", key, job["id"]))
        console.print(f"job {done.get('state', '?').lower()}: {done.get('counts')}")
        for question in questions:
            result = _post(http, _operation("recall"), {"query": question, "tokenBudget": budget})["recall"]
            table = Table(title=f"recall {question!r} ({result['tokens']} tokens, {result['hops']} hop(s))")
            for column in ("score", "knowledge", "proven by"):
                table.add_column(column)
            for item in result["items"][:6]:
                proofs = "\n".join(f"{p['externalId']}: {p['text'][:70]}" for p in item["provenance"])
                table.add_row(f"{item['score']:.3f}", item["text"], proofs)
            console.print(table)
            if result.get("aggregate"):  # a question that counts or adds up: the figure over every matching memory
                console.print(escape(aggregate_line(result["aggregate"])), highlight=False)
        for remark in remarks or []:
            found = _post(http, _operation("associate"), {"utterance": remark, "limit": 5})["associate"]
            if found["__typename"] != "Associations":
                raise typer.BadParameter(f"--remark {remark!r}: {found.get('message') or found}")
            print_associations(console, found, remark, space, trace=False)
    print(
        f"\nGraphQL API: {base}/graphql  (a query page in a browser when ENGRAM_API_DEVELOPMENT=1, as `make demo` "
        "sets: docs/offline-tools.md)"
    )
    print(f"  this space's key, as a request header:  Authorization: Bearer {key}")
    print(f"Memory inspector: {base}/inspector/  (sign in with this space's key; it never goes into the URL)")
    print(f"Neo4j Browser: http://127.0.0.1:{settings.neo4j.http_port}/browser/  (engram browser -s {space})")


if __name__ == "__main__":
    typer.run(demo)
