from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Dimensions(BaseModel):
    dimensions: "DimensionsDimensions"


class DimensionsDimensions(BaseModel):
    total_count: Optional[int] = Field(alias="totalCount")
    edges: list["DimensionsDimensionsEdges"]


class DimensionsDimensionsEdges(BaseModel):
    node: "DimensionsDimensionsEdgesNode"


class DimensionsDimensionsEdgesNode(BaseModel):
    dimension: "DimensionsDimensionsEdgesNodeDimension"
    concept_count: int = Field(alias="conceptCount")
    concepts: "DimensionsDimensionsEdgesNodeConcepts"


class DimensionsDimensionsEdgesNodeDimension(BaseModel):
    id: str
    label: str


class DimensionsDimensionsEdgesNodeConcepts(BaseModel):
    edges: list["DimensionsDimensionsEdgesNodeConceptsEdges"]


class DimensionsDimensionsEdgesNodeConceptsEdges(BaseModel):
    node: "DimensionsDimensionsEdgesNodeConceptsEdgesNode"


class DimensionsDimensionsEdgesNodeConceptsEdgesNode(BaseModel):
    concept: "DimensionsDimensionsEdgesNodeConceptsEdgesNodeConcept"
    summary: list[str]


class DimensionsDimensionsEdgesNodeConceptsEdgesNodeConcept(BaseModel):
    key: str


Dimensions.model_rebuild()
DimensionsDimensions.model_rebuild()
DimensionsDimensionsEdges.model_rebuild()
DimensionsDimensionsEdgesNode.model_rebuild()
DimensionsDimensionsEdgesNodeConcepts.model_rebuild()
DimensionsDimensionsEdgesNodeConceptsEdges.model_rebuild()
DimensionsDimensionsEdgesNodeConceptsEdgesNode.model_rebuild()
