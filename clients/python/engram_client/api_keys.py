from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ApiKeyRole


class ApiKeys(BaseModel):
    api_keys: list["ApiKeysApiKeys"] = Field(alias="apiKeys")


class ApiKeysApiKeys(BaseModel):
    id: str
    label: str
    role: ApiKeyRole
    minted_by: Optional[str] = Field(alias="mintedBy")
    created_at: datetime = Field(alias="createdAt")
    revoked_at: Optional[datetime] = Field(alias="revokedAt")


ApiKeys.model_rebuild()
