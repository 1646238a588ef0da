"""Plain Pydantic models of the memory graph's nodes (what the pipeline writes and recall returns).

Every node has `space` and a deterministic `id`; `(space, id)` is unique per label in Neo4j.
Knowledge nodes are bi-temporal: valid_from/valid_to (in the world), recorded_at/expired_at (in the graph).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class SourceKind(StrEnum):
    CONVERSATION = "conversation"
    DOCUMENT = "document"
    TRAJECTORY = "trajectory"


class KnowledgeStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")

    space: str
    id: str


class Space(Node):
    name: str


class Scoped(Node):
    """A source or episode's scope labels (engram/scope.py); the user is the partition the node is stored in."""

    user: str | None = None
    agent: str | None = None
    session: str | None = None
    metadata: dict[str, str | bool | int | float] = Field(default_factory=dict)


class Source(Scoped):
    kind: SourceKind
    external_id: str
    title: str = ""
    created_at: datetime | None = None
    # The concept key a document's title names (engram/extraction/keyphrases.py `title_key`): the document is that
    # concept's page, and recall finds it by the key.
    title_key: str | None = None


class Episode(Scoped):
    """One standardized step e_t: an utterance, a passage or a trajectory step."""

    source_id: str
    seq: int = Field(ge=0, description="position within the source; NEXT links follow it")
    external_id: str = ""
    speaker: str = ""
    text: str
    occurred_at: datetime | None = None
    observation: str = ""
    action: str = ""
    reward: float | None = None
    subgoal: str = ""
    image_caption: str = ""


class FactAspect(StrEnum):
    """Whether a fact says how things are for a while (a state: lives in, works at) or that something happened (an
    event: went to a concert). States of one slot replace each other; events never do."""

    STATE = "state"
    EVENT = "event"


class Proposition(Node):
    """One self-contained fact ("knowing that"). Where the statement parses as one (engram/facts/), it is an atomic
    fact: whose attribute (`subject`), which attribute (`slot`), what value (`object`, typed by `value_type`), state or
    event, polarity, and the values it names in a source role (`ends`: "moved from Porto", "sold the Volvo") whose
    facts it ends (docs/supersession.md)."""

    text: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    slot: str = Field(default="", description="the attribute the fact fills for its subject; '' when it is no fact")
    value_type: str = Field(default="", description="PERSON, ORG, GPE, DATE, QUANTITY, THING; '' without a value")
    aspect: FactAspect | None = None
    polarity: bool = True
    ends: list[str] = Field(default_factory=list, description="old values it names in a source role")
    adds: bool = Field(default=False, description="an addition to a plural attribute ('we also got a cat')")
    renews: bool = Field(default=False, description="told as new ('now', 'instead'): it replaces the slot's value")
    frame: str = Field(default="", description="what names its attribute: 'live in a city', 'manager'")
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    status: KnowledgeStatus = KnowledgeStatus.ACTIVE
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    episode_ids: list[str] = Field(default_factory=list, description="PROVEN_BY targets")
    concept_keys: list[str] = Field(default_factory=list, description="MENTIONS targets")


class Concept(Node):
    """A schema key: normalised, unique per space."""

    key: str
    name: str


class Intent(Node):
    text: str


class Prescription(Node):
    """A reusable procedure ("knowing how") that SOLVES an intent."""

    text: str
    # What full-text search reads: the words of its intent, actions and observations, each once (trajectory.py).
    terms: str
    intent_id: str
    steps: list[str]
    # Its ordered parts (a trajectory's subgoal segments, docs/procedures.md): part i pursues part_intents[i] with
    # steps[part_ends[i-1]:part_ends[i]]. Two lists, as a Neo4j property holds no maps.
    part_intents: list[str] = Field(default_factory=list)
    part_ends: list[int] = Field(default_factory=list)
    return_score: float = Field(ge=1.0, le=10.0)
    episode_ids: list[str] = Field(default_factory=list)


class Dimension(Node):
    label: str
    summary: str = ""
