from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import MemoryKind


class Memories(BaseModel):
    memories: "MemoriesMemories"


class MemoriesMemories(BaseModel):
    total_count: Optional[int] = Field(alias="totalCount")
    page_info: "MemoriesMemoriesPageInfo" = Field(alias="pageInfo")
    edges: list["MemoriesMemoriesEdges"]


class MemoriesMemoriesPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class MemoriesMemoriesEdges(BaseModel):
    node: "MemoriesMemoriesEdgesNode"


class MemoriesMemoriesEdgesNode(BaseModel):
    id: str
    kind: MemoryKind
    text: str
    status: str
    at: Optional[datetime]
    valid_to: Optional[datetime] = Field(alias="validTo")
    origins: list["MemoriesMemoriesEdgesNodeOrigins"]
    fact: Optional["MemoriesMemoriesEdgesNodeFact"]


class MemoriesMemoriesEdgesNodeOrigins(BaseModel):
    episode_id: str = Field(alias="episodeId")
    episode_external_id: str = Field(alias="episodeExternalId")
    source_id: Optional[str] = Field(alias="sourceId")
    source_external_id: Optional[str] = Field(alias="sourceExternalId")


class MemoriesMemoriesEdgesNodeFact(BaseModel):
    subject: str
    attribute: str
    value: str
    value_type: Optional[str] = Field(alias="valueType")
    aspect: Optional[str]
    polarity: bool
    ends: list[str]


Memories.model_rebuild()
MemoriesMemories.model_rebuild()
MemoriesMemoriesEdges.model_rebuild()
MemoriesMemoriesEdgesNode.model_rebuild()
