from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import KnowledgeStatus


class Correct(BaseModel):
    correct: Union[
        "CorrectCorrectCorrected",
        "CorrectCorrectNotFound",
        "CorrectCorrectInvalidInput",
    ] = Field(discriminator="typename__")


class CorrectCorrectCorrected(BaseModel):
    typename__: Literal["Corrected"] = Field(alias="__typename")
    created: bool
    proposition_id: str = Field(alias="propositionId")
    supersedes_id: str = Field(alias="supersedesId")
    proposition: Optional["CorrectCorrectCorrectedProposition"]
    supersedes: Optional["CorrectCorrectCorrectedSupersedes"]


class CorrectCorrectCorrectedProposition(BaseModel):
    id: str
    text: str
    status: KnowledgeStatus
    provenance: list["CorrectCorrectCorrectedPropositionProvenance"]


class CorrectCorrectCorrectedPropositionProvenance(BaseModel):
    external_id: str = Field(alias="externalId")


class CorrectCorrectCorrectedSupersedes(BaseModel):
    id: str
    status: KnowledgeStatus


class CorrectCorrectNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


class CorrectCorrectInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str


Correct.model_rebuild()
CorrectCorrectCorrected.model_rebuild()
CorrectCorrectCorrectedProposition.model_rebuild()
