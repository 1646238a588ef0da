from pydantic import Field

from .base_model import BaseModel


class Stats(BaseModel):
    stats: "StatsStats"


class StatsStats(BaseModel):
    space: str
    sources: int
    episodes: int
    propositions: int
    active_propositions: int = Field(alias="activePropositions")
    concepts: int
    intents: int
    prescriptions: int
    dimensions: int


Stats.model_rebuild()
