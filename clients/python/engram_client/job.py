from typing import Any, Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import JobState


class Job(BaseModel):
    job: Union["JobJobJob", "JobJobNotFound"] = Field(discriminator="typename__")


class JobJobJob(BaseModel):
    typename__: Literal["Job"] = Field(alias="__typename")
    id: str
    state: JobState
    stage: str
    done: int
    total: int
    fraction: float
    stages_done: list[str] = Field(alias="stagesDone")
    stage_seconds: Any = Field(alias="stageSeconds")
    counts: Any
    error: str
    created_at: str = Field(alias="createdAt")
    finished_at: str = Field(alias="finishedAt")


class JobJobNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


Job.model_rebuild()
