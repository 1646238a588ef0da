from datetime import datetime
from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class History(BaseModel):
    history: Union["HistoryHistoryHistory", "HistoryHistoryNotFound"] = Field(
        discriminator="typename__"
    )


class HistoryHistoryHistory(BaseModel):
    typename__: Literal["History"] = Field(alias="__typename")
    proposition_id: str = Field(alias="propositionId")
    status: str
    current_id: Optional[str] = Field(alias="currentId")
    replaced: list["HistoryHistoryHistoryReplaced"]


class HistoryHistoryHistoryReplaced(BaseModel):
    proposition_id: str = Field(alias="propositionId")
    text: str
    status: str
    reason: str
    replaced_by: str = Field(alias="replacedBy")
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")
    expired_at: Optional[datetime] = Field(alias="expiredAt")
    fact: Optional["HistoryHistoryHistoryReplacedFact"]


class HistoryHistoryHistoryReplacedFact(BaseModel):
    subject: str
    attribute: str
    value: str
    value_type: Optional[str] = Field(alias="valueType")
    aspect: Optional[str]
    polarity: bool
    ends: list[str]


class HistoryHistoryNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str
    id: str


History.model_rebuild()
HistoryHistoryHistory.model_rebuild()
HistoryHistoryHistoryReplaced.model_rebuild()
