"""The CLI's GraphQL client: the operations of graphql/operations/ (the ones the generated client and the docs use)
posted over HTTP with the caller's API key. Plain httpx and dicts: a client command starts in a fraction of a second.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

OPERATIONS = Path(__file__).resolve().parent.parent / "graphql" / "operations"
JSON_HEADERS = {"content-type": "application/json"}


class ApiError(Exception):
    """The API refused a request or could not be reached; the message says what to do."""


class MissingKey(ApiError):
    """No API key was given."""


class ApiTimeout(ApiError):
    """The API did not answer in time (a busy machine): a poll may try again."""


def operation(name: str) -> str:
    """The text of graphql/operations/<name>.graphql."""
    return (OPERATIONS / f"{name}.graphql").read_text(encoding="utf-8")


class ApiClient:
    """One API, one key: `call` runs an operation and returns its data, or raises ApiError."""

    def __init__(self, base_url: str, key: str | None, timeout_s: float) -> None:
        if not key:
            raise MissingKey(
                "no API key: pass --api-key or set ENGRAM_API_KEY (a space's key selects the memory; "
                "`engram keys create --space NAME` issues one)"
            )
        self.base_url = base_url
        self._http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout_s)

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.close()

    def call(self, name: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.query(operation(name), variables)

    def query(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        body = {"query": document, "variables": {k: v for k, v in (variables or {}).items() if v is not None}}
        try:
            response = self._http.post("/graphql", content=json.dumps(body, default=str), headers=JSON_HEADERS)
        except httpx.TimeoutException as exc:
            raise ApiTimeout(
                f"the API at {self.base_url} did not answer in time ({type(exc).__name__}; ENGRAM_TIMEOUT_S sets the "
                "limit)"
            ) from exc
        except httpx.HTTPError as exc:
            raise ApiError(f"cannot reach the API at {self.base_url} ({exc}): is it running (`engram up`)?") from exc
        try:
            answer = response.json()
        except ValueError:
            raise ApiError(f"HTTP {response.status_code} from {self.base_url}: {response.text[:300]}") from None
        errors = answer.get("errors") if isinstance(answer, dict) else None
        if errors:
            detail = "; ".join(str(e.get("message", e)) for e in errors)
            raise ApiError(detail if response.is_success else f"HTTP {response.status_code}: {detail}")
        if not response.is_success or not isinstance(answer.get("data"), dict):
            raise ApiError(f"HTTP {response.status_code} from {self.base_url}: {response.text[:300]}")
        data: dict[str, Any] = answer["data"]
        return data


def expect(result: dict[str, Any], typename: str) -> dict[str, Any]:
    """`result` when it is a `typename`; else ApiError with the API's words (InvalidInput's problems included)."""
    if result.get("__typename") == typename:
        return result
    problems = result.get("problems") or []
    detail = f" ({'; '.join(problems)})" if problems else ""
    raise ApiError(f"{result.get('__typename')}: {result.get('message', '')}{detail}")
