"""Requests and results of proactive recall (`associate`): what the user just said in, the memories worth surfacing
out, each with the paths that brought it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from engram.scope import ScopeFilter
from graph.recall.arguments import ASSOCIATE_LIMIT, ASSOCIATE_NOW, SPEAKER, UTTERANCE
from graph.recall.models import RecallItem, TraceStep

MAX_UTTERANCE_CHARS = int(UTTERANCE.maximum or 0)  # a turn as recall reads it (RecallRequest.query)


class PathKind(StrEnum):
    CONCEPT = "concept"  # a concept the utterance mentions, which the memory mentions too
    TIME = "time"  # the same weekday or time of day as the utterance speaks of
    EMOTION = "emotion"  # the feeling the utterance voices, and what the user said about it
    HABIT = "habit"  # said together with a memory surfaced above it (a habit's co-occurring parts)
    TWO_HOPS = "two_hops"  # two hops through the concept association graph
    WORDING = "wording"  # similar wording (text search), the path recall takes


class AssociationPath(BaseModel):
    kind: PathKind
    detail: str  # in words: "concept 'wan za noodles'", "Wednesday evening", "stress: frustrated"
    concepts: list[
        str
    ] = []  # the concept keys on the path, in order (two hops: the utterance's, the link, the memory's)


class AssociateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    space: str
    utterance: str = UTTERANCE.field()
    # When it is said: "tonight" and "again" are read against it, on its clock (its zone is the user's).
    now: datetime | None = ASSOCIATE_NOW.field()
    limit: int | None = ASSOCIATE_LIMIT.field()
    # Who says it, named as they speak in memory: their own earlier utterances are what they shared (an assistant's
    # replies on the same topic would otherwise outnumber them).
    speaker: str | None = SPEAKER.field()
    scope: ScopeFilter = Field(default_factory=ScopeFilter)


class Association(BaseModel):
    item: RecallItem
    why: list[AssociationPath]  # strongest path first


class AssociateResult(BaseModel):
    utterance: str
    associations: list[Association]  # best first; empty when nothing clears the bar
    reason: str | None = None  # why nothing is surfaced, when nothing is
    trace: list[TraceStep]
