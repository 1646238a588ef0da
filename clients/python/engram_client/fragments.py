from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class ProfileFactFields(BaseModel):
    proposition_id: str = Field(alias="propositionId")
    text: str
    predicate: str
    value: str
    value_type: str = Field(alias="valueType")
    polarity: bool
    status: str
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")
    superseded_by: Optional[str] = Field(alias="supersededBy")
    reason: Optional[str]
    provenance: list["ProfileFactFieldsProvenance"]


class ProfileFactFieldsProvenance(BaseModel):
    episode_id: str = Field(alias="episodeId")
    external_id: str = Field(alias="externalId")
    source_id: str = Field(alias="sourceId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")


ProfileFactFields.model_rebuild()
