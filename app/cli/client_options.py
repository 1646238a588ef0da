"""What every client command (`engram remember`, `recall`, `forget`, `list`, `export`, `import`, `ingest`) shares: the
API's address and key, the scope options, opening the client and turning its failures into exit codes.

Exit codes: 0 done; 1 the API refused or failed (a wrong key, a key of another space, an unreachable API, a failed
job); 2 bad input caught before anything was sent (a bad option, file or space name, no key).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from app.cli.api_client import ApiClient, ApiError, MissingKey
from app.cli.client_settings import ClientSettings
from engram.ids import validate_space

MEMORY_PANEL = "Memory: through the API (--url, --api-key)"
OPERATOR_PANEL = "Operator: the local stack, directly (Neo4j, Redis, workers)"

UrlOption = Annotated[
    str | None,
    typer.Option(
        "--url",
        envvar="ENGRAM_URL",
        help="the API's address [default: http://ENGRAM_API_HOST:ENGRAM_API_PORT, i.e. http://127.0.0.1:8000]",
        show_default=False,
    ),
]
KeyOption = Annotated[
    str | None,
    typer.Option("--api-key", envvar="ENGRAM_API_KEY", help="a space's API key (egk_...): it selects the memory space"),
]
SpaceCheck = Annotated[
    str | None,
    typer.Option("--space", "-s", help="make sure the key opens this space (exit 1 if it opens another)"),
]
UserOption = Annotated[
    str | None,
    typer.Option(
        "--user", "-u", help="whose memory (each user of the space has their own); default: the space's shared one"
    ),
]
SessionOption = Annotated[str | None, typer.Option("--session", help="the app's session or run id")]
AgentOption = Annotated[str | None, typer.Option("--agent", help="the agent the memory was made with")]
MetadataOption = Annotated[
    list[str] | None,
    typer.Option(
        "--metadata", "-m", help="KEY=VALUE, repeatable (numbers and true/false are typed; exact match as a filter)"
    ),
]


def parse_metadata(pairs: list[str] | None) -> dict[str, Any] | None:
    """KEY=VALUE pairs as a flat map (None when none is given); ValueError names a pair without '='."""
    if not pairs:
        return None
    found: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--metadata {pair!r}: write KEY=VALUE")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        found[key] = value if isinstance(value, bool | int | float) else raw
    return found


def open_client(url: str | None, api_key: str | None, space: str | None = None) -> ApiClient:
    """The API client for this call; with `space`, checked to open that space (a typo must not read or write
    another)."""
    settings = ClientSettings()
    if space is not None:
        validate_space(space)
    key = api_key or (settings.api_key.get_secret_value() if settings.api_key else None)
    client = ApiClient(url or settings.base_url(), key, settings.timeout_s)
    if space is not None:
        opened = client.call("stats")["stats"]["space"]
        if opened != space:
            raise ApiError(f"this API key opens the space {opened!r}, not {space!r}")
    return client


@contextmanager
def failures(console: Console) -> Iterator[None]:
    """Bad local input exits 2, an API refusal or failure exits 1, each with one clear line."""
    try:
        yield
    except MissingKey as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from exc
    except ApiError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(1) from exc
    except ValueError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from exc


def where(user: str | None, space: str | None = None) -> str:
    """The memory a command worked on, in words."""
    memory = f"user {user!r}" if user is not None else "the shared memory"
    return f"{memory} of space {space!r}" if space else memory


def api_time(value: datetime | None) -> str | None:
    """A time for the API; one given without a zone is read as UTC (the API refuses a naive time)."""
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def check_names(*options: tuple[str, str | None]) -> None:
    """Name options given (--asker, --speaker) must name someone: an empty one is refused before any request."""
    for name, given in options:
        if given is not None and not given.strip():
            raise ValueError(f"{name}: should have at least 1 character")
