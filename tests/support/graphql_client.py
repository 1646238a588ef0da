"""A small GraphQL client over the real ASGI app (in-process) or the real server (loopback)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Protocol

import httpx

from engram.settings import PROJECT_ROOT

OPERATIONS_DIR = PROJECT_ROOT / "graphql" / "operations"


class Poster(Protocol):
    def post(self, url: str, *, json: Any, headers: dict[str, str]) -> Any: ...


def operation(name: str) -> str:
    """The text of graphql/operations/<name>.graphql (the README quotes the same files)."""
    return (OPERATIONS_DIR / f"{name}.graphql").read_text(encoding="utf-8")


def operation_files() -> list[Path]:
    return sorted(OPERATIONS_DIR.glob("*.graphql"))


class GraphQL:
    def __init__(self, http: Poster, key: str | None, path: str = "/graphql") -> None:
        self.http = http
        self.key = key
        self.path = path

    def raw(
        self,
        query: str,
        variables: dict[str, Any] | None = None,
        operation_name: str | None = None,
        key: str | None = None,
    ) -> Any:
        key = key or self.key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        body: dict[str, Any] = {"query": query, "variables": variables or {}}
        if operation_name:
            body["operationName"] = operation_name
        return self.http.post(self.path, json=body, headers=headers)

    def __call__(
        self,
        query: str,
        variables: dict[str, Any] | None = None,
        operation_name: str | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        """`data` of a successful response; fails the test on HTTP or GraphQL errors."""
        response = self.raw(query, variables, operation_name, key)
        assert response.status_code == 200, response.text
        payload: dict[str, Any] = response.json()
        assert not payload.get("errors"), payload["errors"]
        return payload["data"]  # type: ignore[no-any-return]

    def errors(self, query: str, variables: dict[str, Any] | None = None, key: str | None = None) -> list[Any]:
        response = self.raw(query, variables, key=key)
        errors: list[Any] = response.json().get("errors") or []
        return errors

    def upload(self, query: str, filename: str, content: bytes, content_type: str) -> dict[str, Any]:
        """Run `query` with `$file` bound to an uploaded file (a GraphQL multipart request); returns `data`."""
        response = self.http.post(  # type: ignore[call-arg]
            self.path,
            data={
                "operations": json.dumps({"query": query, "variables": {"file": None}}),
                "map": json.dumps({"0": ["variables.file"]}),
            },
            files={"0": (filename, content, content_type)},
            headers={"Authorization": f"Bearer {self.key}"},
        )
        assert response.status_code == 200, response.text
        return response.json()["data"]  # type: ignore[no-any-return]

    def ingest(self, records: list[dict[str, Any]], timeout_s: float = 300) -> dict[str, Any]:
        """Ingest through the API and wait for the job; returns the finished job."""
        job = self(operation("ingest"), {"records": records})["ingest"]
        assert job["__typename"] == "Job", job
        return self.wait_for_job(job["id"], timeout_s)

    def wait_for_job(self, job_id: str, timeout_s: float = 300) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            status = self(operation("job"), {"id": job_id})["job"]
            if status["state"] in ("SUCCEEDED", "FAILED"):
                assert status["state"] == "SUCCEEDED", status["error"]
                return status  # type: ignore[no-any-return]
            time.sleep(0.3)
        raise TimeoutError(f"job {job_id} not finished in {timeout_s} s")


def create_space(url: str, admin_key: str, name: str) -> str:
    """A new space made through the API with the admin key (as an operator would); its owner key's secret."""
    query = "mutation($n: String!) { createSpace(name: $n) { ... on SpaceCreated { key { secret } } } }"
    answer = httpx.post(
        url, json={"query": query, "variables": {"n": name}}, headers={"Authorization": f"Bearer {admin_key}"}
    )
    secret: str = answer.json()["data"]["createSpace"]["key"]["secret"]
    return secret
