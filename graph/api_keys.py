"""API keys: one space per key, secrets stored only as hashes.

A key reads `egk_<id>.<secret>`. The id is public (it names the key when listing or revoking); the secret is
32 random bytes, so a plain SHA-256 of it is as strong as a slow password hash would be, and cheap enough to
check on every request.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import datetime
from typing import Any

import neo4j
from pydantic import BaseModel

from engram.ids import validate_space
from graph.cypher import load

_KEY = re.compile(r"^egk_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$")


class InvalidApiKey(PermissionError):
    """Missing, malformed, unknown or revoked key: the request is refused without saying which."""


class UnknownSpace(LookupError):
    pass


class ApiKeyInfo(BaseModel):
    id: str
    label: str
    created_at: datetime
    revoked_at: datetime | None = None


class IssuedKey(BaseModel):
    """A newly created key: `secret` is shown once and never stored."""

    info: ApiKeyInfo
    secret: str


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def _info(row: dict[str, Any]) -> ApiKeyInfo:
    return ApiKeyInfo(
        id=row["id"],
        label=row["label"] or "",
        created_at=row["created_at"].to_native(),
        revoked_at=row["revoked_at"].to_native() if row["revoked_at"] else None,
    )


class ApiKeyStore:
    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    def _run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        records, _, _ = self._driver.execute_query(load(f"auth/{name}"), database_=self._database, **params)
        return [r.data() for r in records]

    def create_space(self, space: str) -> bool:
        """Create `space` if it does not exist; True when this call created it."""
        rows = self._run("create_space", space=validate_space(space))
        return bool(rows[0]["created"])

    def issue(self, space: str, label: str = "") -> IssuedKey:
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        rows = self._run("create_key", space=space, key_id=key_id, hash=_hash(secret), label=label[:200])
        if not rows:
            raise UnknownSpace(f"no space {space!r}")
        return IssuedKey(info=_info(rows[0]), secret=f"egk_{key_id}.{secret}")

    def revoke(self, space: str, key_id: str) -> ApiKeyInfo | None:
        rows = self._run("revoke_key", space=space, key_id=key_id)
        return _info(rows[0]) if rows else None

    def keys(self, space: str) -> list[ApiKeyInfo]:
        return [_info(row) for row in self._run("list_keys", space=space)]

    def space_of(self, presented: str) -> tuple[str, str]:
        """(space, key id) of a valid key; raises InvalidApiKey otherwise."""
        match = _KEY.match(presented.strip())
        if not match:
            raise InvalidApiKey("malformed API key")
        key_id, secret = match.groups()
        records, _, _ = self._driver.execute_query(
            load("auth/key_by_id"), key_id=key_id, database_=self._database, routing_=neo4j.RoutingControl.READ
        )
        if not records or records[0]["revoked"] or not hmac.compare_digest(records[0]["hash"], _hash(secret)):
            raise InvalidApiKey("unknown or revoked API key")
        return records[0]["space"], key_id
