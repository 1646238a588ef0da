from datetime import datetime
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import MemoryType


class Recall(BaseModel):
    recall: Union[
        "RecallRecallRecall", "RecallRecallInvalidInput", "RecallRecallOverBudget"
    ] = Field(discriminator="typename__")


class RecallRecallRecall(BaseModel):
    typename__: Literal["Recall"] = Field(alias="__typename")
    memory_types: list[MemoryType] = Field(alias="memoryTypes")
    tokens: int
    hops: int
    items: list["RecallRecallRecallItems"]
    sources: list["RecallRecallRecallSources"]
    trace: list["RecallRecallRecallTrace"]
    cypher: str
    reason: Optional[str]
    aggregate: Optional["RecallRecallRecallAggregate"]


class RecallRecallRecallItems(BaseModel):
    id: str
    kind: str
    text: str
    score: float
    components: Any
    tokens: int
    found_by: list[str] = Field(alias="foundBy")
    relevance: Optional[float]
    valid_from: Optional[datetime] = Field(alias="validFrom")
    superseded_by: Optional[str] = Field(alias="supersededBy")
    valid_to: Optional[datetime] = Field(alias="validTo")
    provenance: list["RecallRecallRecallItemsProvenance"]
    node: Optional[
        Annotated[
            Union[
                "RecallRecallRecallItemsNodeNode",
                "RecallRecallRecallItemsNodeProposition",
            ],
            Field(discriminator="typename__"),
        ]
    ]


class RecallRecallRecallItemsProvenance(BaseModel):
    episode_id: str = Field(alias="episodeId")
    source_id: str = Field(alias="sourceId")
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")


class RecallRecallRecallItemsNodeNode(BaseModel):
    typename__: Literal[
        "Concept", "Dimension", "Episode", "Intent", "Node", "Prescription", "Source"
    ] = Field(alias="__typename")


class RecallRecallRecallItemsNodeProposition(BaseModel):
    typename__: Literal["Proposition"] = Field(alias="__typename")
    concepts: list["RecallRecallRecallItemsNodePropositionConcepts"]


class RecallRecallRecallItemsNodePropositionConcepts(BaseModel):
    key: str


class RecallRecallRecallSources(BaseModel):
    source_id: str = Field(alias="sourceId")
    item_ids: list[str] = Field(alias="itemIds")


class RecallRecallRecallTrace(BaseModel):
    step: str
    ms: float
    detail: Any


class RecallRecallRecallAggregate(BaseModel):
    kind: str
    target: str
    period: Optional[str]
    count: Optional[int]
    sum: Optional[float]
    unit: Optional[str]
    units: list["RecallRecallRecallAggregateUnits"]
    periods: list["RecallRecallRecallAggregatePeriods"]
    unquantified: int
    scanned: int
    reason: Optional[str]
    value: Optional[float]
    value_unit: Optional[str] = Field(alias="valueUnit")
    value_from: Optional[str] = Field(alias="valueFrom")
    items: list["RecallRecallRecallAggregateItems"]


class RecallRecallRecallAggregateUnits(BaseModel):
    unit: str
    sum: float
    count: int


class RecallRecallRecallAggregatePeriods(BaseModel):
    start: Any
    count: int
    sums: list["RecallRecallRecallAggregatePeriodsSums"]


class RecallRecallRecallAggregatePeriodsSums(BaseModel):
    unit: str
    sum: float
    count: int


class RecallRecallRecallAggregateItems(BaseModel):
    id: str
    text: str
    at: Optional[datetime]
    quantity: Optional[float]
    unit: Optional[str]
    similarity: float
    duplicates: list[str]
    provenance: list["RecallRecallRecallAggregateItemsProvenance"]


class RecallRecallRecallAggregateItemsProvenance(BaseModel):
    episode_id: str = Field(alias="episodeId")
    source_id: str = Field(alias="sourceId")
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")


class RecallRecallInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str


class RecallRecallOverBudget(BaseModel):
    typename__: Literal["OverBudget"] = Field(alias="__typename")
    message: str


Recall.model_rebuild()
RecallRecallRecall.model_rebuild()
RecallRecallRecallItems.model_rebuild()
RecallRecallRecallItemsNodeProposition.model_rebuild()
RecallRecallRecallAggregate.model_rebuild()
RecallRecallRecallAggregatePeriods.model_rebuild()
RecallRecallRecallAggregateItems.model_rebuild()
