"""Spaces and API keys as the API shows them (a key's secret is shown once, at creation)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from app.api.schema.outcomes import UserError
from graph.api_keys import ApiKeyInfo, IssuedKey, KeyRole

strawberry.enum(
    KeyRole, name="ApiKeyRole", description="READER reads; WRITER also writes memory; OWNER also revokes other keys"
)


@strawberry.type(description="An API key of a space; its secret is never shown again after creation.")
class ApiKey:
    id: strawberry.ID
    label: str
    role: KeyRole
    minted_by: strawberry.ID | None = strawberry.field(
        description="the key this one was minted with (none when the operator or the admin issued it)"
    )
    created_at: datetime
    revoked_at: datetime | None

    @staticmethod
    def of(info: ApiKeyInfo) -> ApiKey:
        return ApiKey(
            id=strawberry.ID(info.id),
            label=info.label,
            role=info.role,
            minted_by=strawberry.ID(info.minted_by) if info.minted_by else None,
            created_at=info.created_at,
            revoked_at=info.revoked_at,
        )


@strawberry.type(description="A new key: keep `secret`, it is not stored and cannot be shown again.")
class IssuedApiKey:
    key: ApiKey
    secret: str

    @staticmethod
    def of(issued: IssuedKey) -> IssuedApiKey:
        return IssuedApiKey(key=ApiKey.of(issued.info), secret=issued.secret)


@strawberry.type(description="A new space and its first API key.")
class SpaceCreated:
    space: str
    key: IssuedApiKey


@strawberry.type(description="The space exists already; no key was issued (its data is its tenant's).")
class SpaceExists(UserError):
    space: str
