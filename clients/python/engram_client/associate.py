from datetime import datetime
from typing import Any, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import PathKind


class Associate(BaseModel):
    associate: Union[
        "AssociateAssociateAssociations",
        "AssociateAssociateInvalidInput",
        "AssociateAssociateOverBudget",
    ] = Field(discriminator="typename__")


class AssociateAssociateAssociations(BaseModel):
    typename__: Literal["Associations"] = Field(alias="__typename")
    utterance: str
    associations: list["AssociateAssociateAssociationsAssociations"]
    reason: Optional[str]
    trace: list["AssociateAssociateAssociationsTrace"]


class AssociateAssociateAssociationsAssociations(BaseModel):
    item: "AssociateAssociateAssociationsAssociationsItem"
    why: list["AssociateAssociateAssociationsAssociationsWhy"]


class AssociateAssociateAssociationsAssociationsItem(BaseModel):
    id: str
    kind: str
    text: str
    score: float
    components: Any
    found_by: list[str] = Field(alias="foundBy")
    valid_from: Optional[datetime] = Field(alias="validFrom")
    provenance: list["AssociateAssociateAssociationsAssociationsItemProvenance"]


class AssociateAssociateAssociationsAssociationsItemProvenance(BaseModel):
    episode_id: str = Field(alias="episodeId")
    source_id: str = Field(alias="sourceId")
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")


class AssociateAssociateAssociationsAssociationsWhy(BaseModel):
    kind: PathKind
    detail: str
    concepts: list[str]


class AssociateAssociateAssociationsTrace(BaseModel):
    step: str
    ms: float
    detail: Any


class AssociateAssociateInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str
    problems: list[str]


class AssociateAssociateOverBudget(BaseModel):
    typename__: Literal["OverBudget"] = Field(alias="__typename")
    message: str
    limit: int
    requested: int


Associate.model_rebuild()
AssociateAssociateAssociations.model_rebuild()
AssociateAssociateAssociationsAssociations.model_rebuild()
AssociateAssociateAssociationsAssociationsItem.model_rebuild()
