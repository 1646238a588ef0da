"""What every proposition extractor consumes and produces (offline rules or a language model)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

# The version of the rules that draw knowledge from an episode. An episode stores the version its knowledge was drawn
# by; ingested again under another (`engram reextract`, or any re-ingest), its knowledge is drawn anew and what it no
# longer proves goes (cypher/ingest/unlink_changed_episodes.cypher). Change it when extraction changes what it draws.
EXTRACTION_VERSION = "facts-1"


class ExtractionError(RuntimeError):
    """Extraction could not give a valid answer (a model's output, its schema's compilation, its server): the job
    fails with this message, which names no internals, and nothing of the episode is written."""


class ExtractorKind(StrEnum):
    OFFLINE = "offline"
    TRANSFORMERS = "transformers"
    OPENAI = "openai"


@dataclass(frozen=True)
class EpisodeContext:
    """An episode as extraction sees it: the text plus who said it to whom, and when."""

    episode_id: str
    text: str
    speaker: str = ""
    addressee: str = ""
    occurred_at: datetime | None = None
    image_caption: str = ""
    participants: frozenset[str] = frozenset()
    space: str = ""  # the memory space it belongs to (lets a language model name that space's keys)
    title: str = ""  # a document's title: the subject its sentences refer to as "it", "he", "the band"
    # The user whose memory it is (a record's `user`): what they say is theirs to say, so a statement of theirs that
    # names someone else needs no "<user> said:" (an app's user id reads as no one's name).
    user: str = ""


@dataclass
class DraftProposition:
    """A proposition before its concept keys are assimilated into the space's schema."""

    text: str
    episode_ids: list[str]
    valid_from: datetime | None
    concept_phrases: list[str]
    subject: str = ""
    predicate: str = ""
    object: str = ""
    confidence: float = 0.7
    importance: float = 0.5
    # Where the statement is an atomic fact (engram/facts/): its value's type, the text its attribute is named by
    # (`frame`), state or event, polarity, the old values it ends, and whether it adds to a plural attribute.
    value_type: str = ""
    frame: str = ""
    event: bool = False
    polarity: bool = True
    ends: list[str] = field(default_factory=list)
    adds: bool = False
    renews: bool = False


class PropositionExtractor(Protocol):
    def extract(self, episodes: Sequence[EpisodeContext]) -> list[DraftProposition]: ...
