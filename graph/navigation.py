"""Navigation for agents that walk memory step by step: dimensions -> concept pages -> propositions,
typed lateral links, and the episodes behind any piece of knowledge. Every call is scoped by space."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import neo4j
import neo4j.time
from pydantic import BaseModel, field_validator

from engram.extraction.keyphrases import normalize_key
from graph.cypher import load
from graph.reads import read, timed


class LinkType(StrEnum):
    """The typed links an agent may follow."""

    RELATED_TO = "RELATED_TO"
    NEXT = "NEXT"
    CAUSED_BY = "CAUSED_BY"
    CONTRASTS_WITH = "CONTRASTS_WITH"
    ASSOCIATED = "ASSOCIATED"
    SAME_AS = "SAME_AS"
    MENTIONS = "MENTIONS"
    PROVEN_BY = "PROVEN_BY"
    SUPERSEDES = "SUPERSEDES"
    IN = "IN"
    PART_OF = "PART_OF"
    SOLVES = "SOLVES"


LINK_TYPES = frozenset(t.value for t in LinkType)
MAX_PAGE = 200


class UnknownLinkType(ValueError):
    pass


class NotFound(LookupError):
    pass


class DimensionView(BaseModel):
    id: str
    label: str
    summary: str
    concepts: int


class ConceptSummary(BaseModel):
    id: str
    key: str
    name: str
    df: int
    importance: float
    summary: list[str]


class PropositionView(BaseModel):
    id: str
    text: str
    valid_from: Any = None
    episodes: list[str]
    links: list[dict[str, str]]


class ConceptPage(BaseModel):
    id: str
    key: str
    name: str
    df: int
    importance: float
    dimension_id: str | None
    dimension: str | None
    associated: list[dict[str, Any]]
    aliases: list[str]
    propositions: list[PropositionView]


class Neighbour(BaseModel):
    id: str
    label: str
    text: str | None
    outgoing: bool
    properties: dict[str, Any]  # the link's own, as JSON values: times as ISO 8601 text

    @field_validator("properties", mode="before")
    @classmethod
    def _as_json(cls, properties: dict[str, Any]) -> dict[str, Any]:
        # A link's properties go out as a JSON scalar: a SUPERSEDES link's time (a Neo4j DateTime) could not.
        return {name: _json_value(value) for name, value in properties.items()}


def _json_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if hasattr(value, "iso_format"):  # neo4j.time DateTime, Date, Time
        return value.iso_format()
    if isinstance(value, neo4j.time.Duration):
        return str(value)
    return value


class EpisodeView(BaseModel):
    id: str
    external_id: str
    speaker: str
    text: str
    occurred_at: Any = None
    source_id: str
    source: str


MAX_ASSOCIATED = 100  # associations (and aliases) on a concept page


def _page(first: int) -> int:
    return max(1, min(first, MAX_PAGE))


class Navigator:
    def __init__(self, driver: neo4j.Driver, database: str, space: str, timeout_s: float | None = None) -> None:
        self._driver = driver
        self._database = database
        self._space = space
        self._timeout_s = timeout_s  # each statement's transaction timeout (None: the server's default)

    def _run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        query = timed(load(f"navigation/{name}"), self._timeout_s)
        return [
            r.data()
            for r in read(self._driver, self._database, f"navigation/{name}", query, space=self._space, **params)
        ]

    def dimensions(self) -> list[DimensionView]:
        return [DimensionView(**row) for row in self._run("dimensions")]

    def browse_dimension(self, dimension_id: str, first: int = 20, skip: int = 0) -> list[ConceptSummary]:
        rows = self._run("dimension_concepts", dimension_id=dimension_id, limit=_page(first), skip=max(0, skip))
        return [ConceptSummary(**row) for row in rows]

    def concept_page(self, key: str, first: int = 20, skip: int = 0) -> ConceptPage:
        """The concept `key` with its MAX_ASSOCIATED strongest associations (strongest first) and a page of its
        propositions. A key is found as written or in its schema form ("Harbor Lab" finds "harbor lab")."""
        rows = self._run("concept_page", key=key, max_associated=MAX_ASSOCIATED)
        if not rows and (normal := normalize_key(key)) and normal != key:
            key = normal
            rows = self._run("concept_page", key=key, max_associated=MAX_ASSOCIATED)
        if not rows:
            raise NotFound(f"no concept {key!r} in this space")
        return ConceptPage(**rows[0], propositions=self.concept_propositions(key, first, skip))

    def concept_propositions(self, key: str, first: int = 20, skip: int = 0) -> list[PropositionView]:
        """A page of the active propositions that mention the concept `key` (none for an unknown key)."""
        rows = self._run("concept_propositions", key=key, limit=_page(first), skip=max(0, skip))
        return [PropositionView(**p) for p in rows]

    def follow(self, node_id: str, link_type: str, first: int = 20) -> list[Neighbour]:
        if link_type not in LINK_TYPES:
            raise UnknownLinkType(f"unknown link type {link_type!r}; one of {', '.join(sorted(LINK_TYPES))}")
        rows = self._run("follow_link", node_id=node_id, rel_type=link_type, limit=_page(first))
        return [Neighbour(**row) for row in rows]

    def episodes_of(self, item_id: str) -> list[EpisodeView]:
        return [EpisodeView(**row) for row in self._run("episodes_of", item_id=item_id)]
