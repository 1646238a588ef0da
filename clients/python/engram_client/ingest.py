from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import JobState


class Ingest(BaseModel):
    ingest: Union[
        "IngestIngestJob", "IngestIngestInvalidInput", "IngestIngestOverBudget"
    ] = Field(discriminator="typename__")


class IngestIngestJob(BaseModel):
    typename__: Literal["Job"] = Field(alias="__typename")
    id: str
    state: JobState
    sources: list["IngestIngestJobSources"]


class IngestIngestJobSources(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    episodes: list["IngestIngestJobSourcesEpisodes"]


class IngestIngestJobSourcesEpisodes(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")


class IngestIngestInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str
    problems: list[str]


class IngestIngestOverBudget(BaseModel):
    typename__: Literal["OverBudget"] = Field(alias="__typename")
    message: str
    limit: int
    requested: int


Ingest.model_rebuild()
IngestIngestJob.model_rebuild()
IngestIngestJobSources.model_rebuild()
