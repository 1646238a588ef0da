from datetime import datetime

from pydantic import Field

from .base_model import BaseModel


class CreateApiKey(BaseModel):
    create_api_key: "CreateApiKeyCreateApiKey" = Field(alias="createApiKey")


class CreateApiKeyCreateApiKey(BaseModel):
    secret: str
    key: "CreateApiKeyCreateApiKeyKey"


class CreateApiKeyCreateApiKeyKey(BaseModel):
    id: str
    label: str
    created_at: datetime = Field(alias="createdAt")


CreateApiKey.model_rebuild()
CreateApiKeyCreateApiKey.model_rebuild()
