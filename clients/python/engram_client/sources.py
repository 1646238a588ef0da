from datetime import datetime
from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel


class Sources(BaseModel):
    sources: "SourcesSources"


class SourcesSources(BaseModel):
    total_count: Optional[int] = Field(alias="totalCount")
    page_info: "SourcesSourcesPageInfo" = Field(alias="pageInfo")
    edges: list["SourcesSourcesEdges"]


class SourcesSourcesPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class SourcesSourcesEdges(BaseModel):
    node: "SourcesSourcesEdgesNode"


class SourcesSourcesEdgesNode(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    title: str
    created_at: Optional[datetime] = Field(alias="createdAt")
    agent: Optional[str]
    session: Optional[str]
    metadata: Any
    episodes: int


Sources.model_rebuild()
SourcesSources.model_rebuild()
SourcesSourcesEdges.model_rebuild()
