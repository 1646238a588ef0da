from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class SourceEpisodes(BaseModel):
    node: Optional[
        Annotated[
            Union["SourceEpisodesNodeNode", "SourceEpisodesNodeSource"],
            Field(discriminator="typename__"),
        ]
    ]


class SourceEpisodesNodeNode(BaseModel):
    typename__: Literal[
        "Concept",
        "Dimension",
        "Episode",
        "Intent",
        "Node",
        "Prescription",
        "Proposition",
    ] = Field(alias="__typename")


class SourceEpisodesNodeSource(BaseModel):
    typename__: Literal["Source"] = Field(alias="__typename")
    kind: str
    external_id: str = Field(alias="externalId")
    episodes: "SourceEpisodesNodeSourceEpisodes"


class SourceEpisodesNodeSourceEpisodes(BaseModel):
    total_count: Optional[int] = Field(alias="totalCount")
    page_info: "SourceEpisodesNodeSourceEpisodesPageInfo" = Field(alias="pageInfo")
    edges: list["SourceEpisodesNodeSourceEpisodesEdges"]


class SourceEpisodesNodeSourceEpisodesPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class SourceEpisodesNodeSourceEpisodesEdges(BaseModel):
    node: "SourceEpisodesNodeSourceEpisodesEdgesNode"


class SourceEpisodesNodeSourceEpisodesEdgesNode(BaseModel):
    id: str
    external_id: str = Field(alias="externalId")
    speaker: str
    text: str
    knowledge: list[
        Annotated[
            Union[
                "SourceEpisodesNodeSourceEpisodesEdgesNodeKnowledgeProposition",
                "SourceEpisodesNodeSourceEpisodesEdgesNodeKnowledgePrescription",
            ],
            Field(discriminator="typename__"),
        ]
    ]


class SourceEpisodesNodeSourceEpisodesEdgesNodeKnowledgeProposition(BaseModel):
    typename__: Literal["Proposition"] = Field(alias="__typename")
    text: str


class SourceEpisodesNodeSourceEpisodesEdgesNodeKnowledgePrescription(BaseModel):
    typename__: Literal["Prescription"] = Field(alias="__typename")


SourceEpisodes.model_rebuild()
SourceEpisodesNodeSource.model_rebuild()
SourceEpisodesNodeSourceEpisodes.model_rebuild()
SourceEpisodesNodeSourceEpisodesEdges.model_rebuild()
SourceEpisodesNodeSourceEpisodesEdgesNode.model_rebuild()
