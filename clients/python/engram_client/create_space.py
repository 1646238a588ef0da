from datetime import datetime
from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel


class CreateSpace(BaseModel):
    create_space: Union[
        "CreateSpaceCreateSpaceSpaceCreated",
        "CreateSpaceCreateSpaceSpaceExists",
        "CreateSpaceCreateSpaceInvalidInput",
    ] = Field(alias="createSpace", discriminator="typename__")


class CreateSpaceCreateSpaceSpaceCreated(BaseModel):
    typename__: Literal["SpaceCreated"] = Field(alias="__typename")
    space: str
    key: "CreateSpaceCreateSpaceSpaceCreatedKey"


class CreateSpaceCreateSpaceSpaceCreatedKey(BaseModel):
    secret: str
    key: "CreateSpaceCreateSpaceSpaceCreatedKeyKey"


class CreateSpaceCreateSpaceSpaceCreatedKeyKey(BaseModel):
    id: str
    label: str
    created_at: datetime = Field(alias="createdAt")


class CreateSpaceCreateSpaceSpaceExists(BaseModel):
    typename__: Literal["SpaceExists"] = Field(alias="__typename")
    space: str
    message: str


class CreateSpaceCreateSpaceInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str


CreateSpace.model_rebuild()
CreateSpaceCreateSpaceSpaceCreated.model_rebuild()
CreateSpaceCreateSpaceSpaceCreatedKey.model_rebuild()
