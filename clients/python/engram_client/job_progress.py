from typing import Any

from pydantic import Field

from .base_model import BaseModel
from .enums import JobState


class JobProgress(BaseModel):
    job_progress: "JobProgressJobProgress" = Field(alias="jobProgress")


class JobProgressJobProgress(BaseModel):
    id: str
    state: JobState
    stage: str
    fraction: float
    counts: Any


JobProgress.model_rebuild()
