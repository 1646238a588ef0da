from typing import Any, Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import LinkType


class Follow(BaseModel):
    follow: Union["FollowFollowLinks", "FollowFollowNotFound"] = Field(
        discriminator="typename__"
    )


class FollowFollowLinks(BaseModel):
    typename__: Literal["Links"] = Field(alias="__typename")
    links: list["FollowFollowLinksLinks"]


class FollowFollowLinksLinks(BaseModel):
    type_: LinkType = Field(alias="type")
    outgoing: bool
    properties: Any
    node: Union[
        "FollowFollowLinksLinksNodeNode",
        "FollowFollowLinksLinksNodeConcept",
        "FollowFollowLinksLinksNodeEpisode",
        "FollowFollowLinksLinksNodeIntent",
        "FollowFollowLinksLinksNodePrescription",
        "FollowFollowLinksLinksNodeProposition",
        "FollowFollowLinksLinksNodeSource",
    ] = Field(discriminator="typename__")


class FollowFollowLinksLinksNodeNode(BaseModel):
    id: str
    typename__: Literal["Dimension", "Node"] = Field(alias="__typename")


class FollowFollowLinksLinksNodeConcept(BaseModel):
    id: str
    typename__: Literal["Concept"] = Field(alias="__typename")
    key: str


class FollowFollowLinksLinksNodeEpisode(BaseModel):
    id: str
    typename__: Literal["Episode"] = Field(alias="__typename")
    speaker: str
    text: str


class FollowFollowLinksLinksNodeIntent(BaseModel):
    id: str
    typename__: Literal["Intent"] = Field(alias="__typename")
    text: str


class FollowFollowLinksLinksNodePrescription(BaseModel):
    id: str
    typename__: Literal["Prescription"] = Field(alias="__typename")
    text: str


class FollowFollowLinksLinksNodeProposition(BaseModel):
    id: str
    typename__: Literal["Proposition"] = Field(alias="__typename")
    text: str


class FollowFollowLinksLinksNodeSource(BaseModel):
    id: str
    typename__: Literal["Source"] = Field(alias="__typename")
    title: str


class FollowFollowNotFound(BaseModel):
    typename__: Literal["NotFound"] = Field(alias="__typename")
    message: str


Follow.model_rebuild()
FollowFollowLinks.model_rebuild()
FollowFollowLinksLinks.model_rebuild()
