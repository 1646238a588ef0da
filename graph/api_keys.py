"""API keys: one space per key, secrets stored only as hashes, each with a role and the key that minted it.

A key reads `egk_<id>.<secret>`. The id is public (it names the key when listing or revoking); the secret is
32 random bytes, so a plain SHA-256 of it is as strong as a slow password hash would be, and cheap enough to
check on every request.

Roles rank reader < writer < owner: readers read, writers also write memory, owners also revoke any key of their
space but those they were minted from. A key mints no key above its own role and revokes itself and what it minted.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import neo4j
from pydantic import BaseModel

from engram.api_key_roles import KeyRole as KeyRole  # re-exported: the API names roles from here
from engram.ids import validate_space
from graph.cypher import load

_KEY = re.compile(r"^egk_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$")


MAX_LABEL_CHARS = 200


def check_label(label: str) -> None:
    """A key's label is the holder's note on what the key is for; one over MAX_LABEL_CHARS is refused whole."""
    if len(label) > MAX_LABEL_CHARS:
        raise ValueError(f"a key label has at most {MAX_LABEL_CHARS} characters, this one {len(label)}")


class InvalidApiKey(PermissionError):
    """Missing, malformed, unknown or revoked key: the request is refused without saying which."""


class UnknownSpace(LookupError):
    pass


class KeyLimitReached(Exception):
    """The space holds as many active keys as it may: one must be revoked before another is minted."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"this space holds {limit} active keys, the most it may; revoke one (revokeApiKey) before minting another"
        )


class RevokeRefused(PermissionError):
    pass


class ApiKeyInfo(BaseModel):
    id: str
    label: str
    role: KeyRole = KeyRole.OWNER
    minted_by: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class KeyHolder:
    """Whom a valid key names: its space, id and role."""

    space: str
    key_id: str
    role: KeyRole


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
        role=KeyRole(row["role"]),
        minted_by=row["minted_by"],
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

    def issue(
        self,
        space: str,
        label: str = "",
        role: KeyRole = KeyRole.OWNER,
        minted_by: str | None = None,
        max_active: int = 0,
    ) -> IssuedKey:
        """A new key of `space` (raises KeyLimitReached when it holds `max_active` active keys, 0: no cap; ValueError
        for a label over MAX_LABEL_CHARS, which is refused rather than cut)."""
        check_label(label)
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        rows = self._run(
            "create_key",
            space=space,
            key_id=key_id,
            hash=_hash(secret),
            label=label,
            role=role.value,
            minted_by=minted_by,
            max_active=max_active,
        )
        if not rows:
            raise UnknownSpace(f"no space {space!r}")
        if rows[0]["id"] is None:
            raise KeyLimitReached(max_active)
        return IssuedKey(info=_info(rows[0]), secret=f"egk_{key_id}.{secret}")

    def revoke(self, space: str, key_id: str, by: str | None = None) -> ApiKeyInfo | None:
        """Revoke `key_id` on behalf of the key `by` (None: the operator); None when the space has no such key.
        Raises RevokeRefused when `by` may not revoke it (the module's docstring says which it may)."""
        rows = self._run("revoke_key", space=space, key_id=key_id, by=by)
        if not rows:
            return None
        if not rows[0]["allowed"]:
            raise RevokeRefused(
                f"key {key_id!r} is out of this key's reach: a key revokes itself and the keys it minted, an owner "
                "key any key but those it was minted from"
            )
        return _info(rows[0])

    def keys(self, space: str) -> list[ApiKeyInfo]:
        return [_info(row) for row in self._run("list_keys", space=space)]

    def holder_of(self, presented: str) -> KeyHolder:
        """Space, id and role of a valid key; raises InvalidApiKey otherwise."""
        match = _KEY.match(presented.strip())
        if not match:
            raise InvalidApiKey("malformed API key")
        key_id, secret = match.groups()
        records, _, _ = self._driver.execute_query(
            load("auth/key_by_id"), key_id=key_id, database_=self._database, routing_=neo4j.RoutingControl.READ
        )
        if not records or records[0]["revoked"] or not hmac.compare_digest(records[0]["hash"], _hash(secret)):
            raise InvalidApiKey("unknown or revoked API key")
        return KeyHolder(space=records[0]["space"], key_id=key_id, role=KeyRole(records[0]["role"]))
