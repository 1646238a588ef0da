"""The CLI's GraphQL client: the operations of graphql/operations/ (the ones the generated client and the docs use)
posted over HTTP with the caller's API key. Standard library HTTP and dicts: a command starts in a fraction of a second.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from engram.assets import OPERATIONS as OPERATIONS_ASSET
from engram.assets import asset_dir

OPERATIONS = asset_dir(OPERATIONS_ASSET)  # graphql/operations, shipped in the package
JSON_HEADERS = {"content-type": "application/json"}


class ApiError(Exception):
    """The API refused a request or could not be reached; the message says what to do."""


class MissingKey(ApiError):
    """No API key was given."""


class ApiTimeout(ApiError):
    """The API did not answer in time (a busy machine): a poll may try again."""


def api_base(url: str) -> str:
    """The API's base URL from either form people write: `http://host:8000` or its GraphQL endpoint
    `http://host:8000/graphql` (what the Python client and the docs name)."""
    return url.strip().rstrip("/").removesuffix("/graphql").rstrip("/")


def operation(name: str) -> str:
    """The text of graphql/operations/<name>.graphql."""
    return (OPERATIONS / f"{name}.graphql").read_text(encoding="utf-8")


class ApiClient:
    """One API, one key: `call` runs an operation and returns its data, or raises ApiError. Standard library HTTP
    (urllib): a command pays no HTTP client's import on every start."""

    def __init__(self, base_url: str, key: str | None, timeout_s: float) -> None:
        if not key:
            raise MissingKey(
                "no API key: pass --api-key or set ENGRAM_API_KEY (a space's key selects the memory; "
                "`engram keys create --space NAME` issues one)"
            )
        self.base_url = api_base(base_url)
        self.endpoint = f"{self.base_url}/graphql"
        self._headers = {**JSON_HEADERS, "Authorization": f"Bearer {key}"}
        self._timeout_s = timeout_s

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def call(self, name: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.query(operation(name), variables)

    def query(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        body = {"query": document, "variables": {k: v for k, v in (variables or {}).items() if v is not None}}
        status, text = self._post(json.dumps(body, default=str).encode("utf-8"))
        try:
            answer = json.loads(text)
        except ValueError:
            raise ApiError(f"HTTP {status} from {self.endpoint}: {text[:300]}") from None
        ok = 200 <= status < 300
        errors = answer.get("errors") if isinstance(answer, dict) else None
        if errors:
            detail = "; ".join(str(e.get("message", e)) for e in errors)
            raise ApiError(detail if ok else f"HTTP {status} from {self.endpoint}: {detail}")
        if not ok or not isinstance(answer.get("data"), dict):
            raise ApiError(f"HTTP {status} from {self.endpoint}: {text[:300]}")
        data: dict[str, Any] = answer["data"]
        return data

    def _post(self, body: bytes) -> tuple[int, str]:
        """The HTTP status and body of one POST to /graphql (an error status is an answer too: it says why)."""
        request = urllib.request.Request(self.endpoint, data=body, headers=self._headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self._timeout_s) as response:
                return int(response.status), response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")
        except TimeoutError as exc:
            raise self._late(exc) from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError):
                raise self._late(reason) from exc
            raise ApiError(f"cannot reach the API at {self.endpoint} ({reason}): is it running (`engram up`)?") from exc

    def _late(self, exc: BaseException) -> ApiTimeout:
        return ApiTimeout(
            f"the API at {self.endpoint} did not answer in time ({type(exc).__name__}; ENGRAM_TIMEOUT_S sets the limit)"
        )


def expect(result: dict[str, Any], typename: str) -> dict[str, Any]:
    """`result` when it is a `typename`; else ApiError with the API's words (InvalidInput's problems included)."""
    if result.get("__typename") == typename:
        return result
    problems = result.get("problems") or []
    detail = f" ({'; '.join(problems)})" if problems else ""
    raise ApiError(f"{result.get('__typename')}: {result.get('message', '')}{detail}")
