from datetime import datetime
from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class RevokeApiKey(BaseModel):
    revoke_api_key: Union[
        "RevokeApiKeyRevokeApiKeyApiKey", "RevokeApiKeyRevokeApiKeyNotFound"
    ] = Field(alias="revokeApiKey", discriminator="typename__")


class RevokeApiKeyRevokeApiKeyApiKey(BaseModel):
    typename__: Literal["ApiKey"] = Field(alias="__typename")
    id: str
    revoked_at: Optional[datetime] = Field(alias="revokedAt")


class RevokeApiKeyRevokeApiKeyNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


RevokeApiKey.model_rebuild()
