from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class Forget(BaseModel):
    forget: Union[
        "ForgetForgetForgotten", "ForgetForgetInvalidInput", "ForgetForgetOverBudget"
    ] = Field(discriminator="typename__")


class ForgetForgetForgotten(BaseModel):
    typename__: Literal["Forgotten"] = Field(alias="__typename")
    episode_ids: list[str] = Field(alias="episodeIds")
    knowledge_ids: list[str] = Field(alias="knowledgeIds")
    source_ids: list[str] = Field(alias="sourceIds")
    intent_ids: list[str] = Field(alias="intentIds")
    concepts_removed: int = Field(alias="conceptsRemoved")
    not_found: list[str] = Field(alias="notFound")
    episodes_removed: Optional[int] = Field(alias="episodesRemoved")
    knowledge_removed: Optional[int] = Field(alias="knowledgeRemoved")
    stopped_job_ids: list[str] = Field(alias="stoppedJobIds")


class ForgetForgetInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str
    problems: list[str]


class ForgetForgetOverBudget(BaseModel):
    typename__: Literal["OverBudget"] = Field(alias="__typename")
    message: str


Forget.model_rebuild()
