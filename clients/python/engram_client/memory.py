from datetime import datetime
from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import KnowledgeStatus


class Memory(BaseModel):
    node: Optional[
        Annotated[
            Union[
                "MemoryNodeNode",
                "MemoryNodeEpisode",
                "MemoryNodePrescription",
                "MemoryNodeProposition",
            ],
            Field(discriminator="typename__"),
        ]
    ]


class MemoryNodeNode(BaseModel):
    typename__: Literal["Concept", "Dimension", "Intent", "Node", "Source"] = Field(
        alias="__typename"
    )
    id: str


class MemoryNodeEpisode(BaseModel):
    typename__: Literal["Episode"] = Field(alias="__typename")
    id: str
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    source: Optional["MemoryNodeEpisodeSource"]
    knowledge: list[
        Annotated[
            Union[
                "MemoryNodeEpisodeKnowledgeProposition",
                "MemoryNodeEpisodeKnowledgePrescription",
            ],
            Field(discriminator="typename__"),
        ]
    ]


class MemoryNodeEpisodeSource(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    title: str


class MemoryNodeEpisodeKnowledgeProposition(BaseModel):
    typename__: Literal["Proposition"] = Field(alias="__typename")
    id: str
    text: str
    status: KnowledgeStatus


class MemoryNodeEpisodeKnowledgePrescription(BaseModel):
    typename__: Literal["Prescription"] = Field(alias="__typename")
    id: str
    text: str


class MemoryNodePrescription(BaseModel):
    typename__: Literal["Prescription"] = Field(alias="__typename")
    id: str
    text: str
    steps: list[str]
    provenance: list["MemoryNodePrescriptionProvenance"]


class MemoryNodePrescriptionProvenance(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    source: Optional["MemoryNodePrescriptionProvenanceSource"]


class MemoryNodePrescriptionProvenanceSource(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    title: str


class MemoryNodeProposition(BaseModel):
    typename__: Literal["Proposition"] = Field(alias="__typename")
    id: str
    text: str
    status: KnowledgeStatus
    subject: str
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")
    recorded_at: Optional[datetime] = Field(alias="recordedAt")
    expired_at: Optional[datetime] = Field(alias="expiredAt")
    confidence: float
    superseded_by: Optional[str] = Field(alias="supersededBy")
    fact: Optional["MemoryNodePropositionFact"]
    concepts: list["MemoryNodePropositionConcepts"]
    provenance: list["MemoryNodePropositionProvenance"]


class MemoryNodePropositionFact(BaseModel):
    subject: str
    attribute: str
    value: str
    value_type: Optional[str] = Field(alias="valueType")
    aspect: Optional[str]
    polarity: bool
    ends: list[str]


class MemoryNodePropositionConcepts(BaseModel):
    key: str


class MemoryNodePropositionProvenance(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    source: Optional["MemoryNodePropositionProvenanceSource"]


class MemoryNodePropositionProvenanceSource(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    kind: str
    title: str


Memory.model_rebuild()
MemoryNodeEpisode.model_rebuild()
MemoryNodePrescription.model_rebuild()
MemoryNodePrescriptionProvenance.model_rebuild()
MemoryNodeProposition.model_rebuild()
MemoryNodePropositionProvenance.model_rebuild()
