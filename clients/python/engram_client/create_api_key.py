from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ApiKeyRole


class CreateApiKey(BaseModel):
    create_api_key: "CreateApiKeyCreateApiKey" = Field(alias="createApiKey")


class CreateApiKeyCreateApiKey(BaseModel):
    secret: str
    key: "CreateApiKeyCreateApiKeyKey"


class CreateApiKeyCreateApiKeyKey(BaseModel):
    id: str
    label: str
    role: ApiKeyRole
    minted_by: Optional[str] = Field(alias="mintedBy")
    created_at: datetime = Field(alias="createdAt")


CreateApiKey.model_rebuild()
CreateApiKeyCreateApiKey.model_rebuild()
