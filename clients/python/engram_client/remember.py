from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import JobState


class Remember(BaseModel):
    remember: Union[
        "RememberRememberJob",
        "RememberRememberInvalidInput",
        "RememberRememberOverBudget",
    ] = Field(discriminator="typename__")


class RememberRememberJob(BaseModel):
    typename__: Literal["Job"] = Field(alias="__typename")
    id: str
    state: JobState
    sources: list["RememberRememberJobSources"]


class RememberRememberJobSources(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    episodes: list["RememberRememberJobSourcesEpisodes"]


class RememberRememberJobSourcesEpisodes(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")


class RememberRememberInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str
    problems: list[str]


class RememberRememberOverBudget(BaseModel):
    typename__: Literal["OverBudget"] = Field(alias="__typename")
    message: str
    limit: int
    requested: int


Remember.model_rebuild()
RememberRememberJob.model_rebuild()
RememberRememberJobSources.model_rebuild()
