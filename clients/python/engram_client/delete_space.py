from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel


class DeleteSpace(BaseModel):
    delete_space: Union[
        "DeleteSpaceDeleteSpaceSpaceDeleted", "DeleteSpaceDeleteSpaceNotFound"
    ] = Field(alias="deleteSpace", discriminator="typename__")


class DeleteSpaceDeleteSpaceSpaceDeleted(BaseModel):
    typename__: Literal["SpaceDeleted"] = Field(alias="__typename")
    space: str
    users: int
    episodes_removed: int = Field(alias="episodesRemoved")
    knowledge_removed: int = Field(alias="knowledgeRemoved")
    stopped_job_ids: list[str] = Field(alias="stoppedJobIds")


class DeleteSpaceDeleteSpaceNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


DeleteSpace.model_rebuild()
