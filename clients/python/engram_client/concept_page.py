from datetime import datetime
from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class ConceptPage(BaseModel):
    concept: Union["ConceptPageConceptConceptPage", "ConceptPageConceptNotFound"] = (
        Field(discriminator="typename__")
    )


class ConceptPageConceptConceptPage(BaseModel):
    typename__: Literal["ConceptPage"] = Field(alias="__typename")
    concept: "ConceptPageConceptConceptPageConcept"
    dimension: Optional["ConceptPageConceptConceptPageDimension"]
    associated: list["ConceptPageConceptConceptPageAssociated"]
    aliases: list[str]
    propositions: "ConceptPageConceptConceptPagePropositions"


class ConceptPageConceptConceptPageConcept(BaseModel):
    id: str
    key: str
    name: str
    df: int
    importance: float


class ConceptPageConceptConceptPageDimension(BaseModel):
    id: str
    label: str


class ConceptPageConceptConceptPageAssociated(BaseModel):
    key: str
    weight: float


class ConceptPageConceptConceptPagePropositions(BaseModel):
    total_count: Optional[int] = Field(alias="totalCount")
    page_info: "ConceptPageConceptConceptPagePropositionsPageInfo" = Field(
        alias="pageInfo"
    )
    edges: list["ConceptPageConceptConceptPagePropositionsEdges"]


class ConceptPageConceptConceptPagePropositionsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class ConceptPageConceptConceptPagePropositionsEdges(BaseModel):
    cursor: str
    node: "ConceptPageConceptConceptPagePropositionsEdgesNode"


class ConceptPageConceptConceptPagePropositionsEdgesNode(BaseModel):
    id: str
    text: str
    valid_from: Optional[datetime] = Field(alias="validFrom")
    provenance: list["ConceptPageConceptConceptPagePropositionsEdgesNodeProvenance"]


class ConceptPageConceptConceptPagePropositionsEdgesNodeProvenance(BaseModel):
    external_id: str = Field(alias="externalId")
    text: str


class ConceptPageConceptNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


ConceptPage.model_rebuild()
ConceptPageConceptConceptPage.model_rebuild()
ConceptPageConceptConceptPagePropositions.model_rebuild()
ConceptPageConceptConceptPagePropositionsEdges.model_rebuild()
ConceptPageConceptConceptPagePropositionsEdgesNode.model_rebuild()
