"""The generic input records (one JSON object per record; JSONL = one per line).

A record is a conversation (sessions of turns), a document (text split into passages) or an agent
trajectory (steps), each optionally scoped (`user`, `agent`, `session`, `metadata`: engram/scope.py). Validation is
strict: unknown fields, empty texts and oversize texts are errors that name the record and the field.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from engram.scope import Metadata, ScopeFields

MAX_TURN_CHARS = 20_000
MAX_DOCUMENT_CHARS = 2_000_000
MAX_RECORDS_PER_JOB = 10_000


def _utc(value: datetime | None) -> datetime | None:
    """Naive timestamps are taken as UTC; aware ones are converted to UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(_utc)]
Identifier = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")]
TurnText = Annotated[str, Field(min_length=1, max_length=MAX_TURN_CHARS)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Turn(Strict):
    speaker: Annotated[str, Field(min_length=1, max_length=200)]
    text: TurnText
    timestamp: UtcDatetime | None = None
    image_caption: Annotated[str, Field(max_length=2_000)] = ""
    id: Identifier | None = Field(default=None, description="an external turn id such as 'D1:3'")
    metadata: Metadata = Field(
        default_factory=dict, description="this turn's own metadata, over the record's (engram/scope.py)"
    )


def _refuse_duplicates(kind: str, ids: list[str], merged_into: str) -> None:
    """Ids name episodes and sources (engram/ids.py): two items with one id would silently become one."""
    seen: dict[str, int] = {}
    for position, item_id in enumerate(ids, start=1):
        if item_id in seen:
            raise ValueError(
                f"duplicate {kind} id {item_id!r} ({kind}s {seen[item_id]} and {position}): "
                f"each needs its own id, or both would be written as one {merged_into}"
            )
        seen[item_id] = position


class Session(Strict):
    id: Identifier
    started_at: UtcDatetime | None = None
    turns: Annotated[list[Turn], Field(min_length=1, max_length=5_000)]

    @model_validator(mode="after")
    def _distinct_turn_ids(self) -> Session:
        # A turn without an id is named by its position (workers/pipeline/standardize.py), as "0", "1", ...
        _refuse_duplicates("turn", [t.id or str(seq) for seq, t in enumerate(self.turns)], "episode")
        return self


class ConversationRecord(ScopeFields):
    type: Literal["conversation"]
    id: Identifier
    title: Annotated[str, Field(max_length=500)] = ""
    sessions: Annotated[list[Session], Field(min_length=1, max_length=1_000)]

    @model_validator(mode="after")
    def _distinct_session_ids(self) -> ConversationRecord:
        _refuse_duplicates("session", [s.id for s in self.sessions], "source")
        return self


class DocumentRecord(ScopeFields):
    type: Literal["document"]
    id: Identifier
    title: Annotated[str, Field(max_length=500)] = ""
    created_at: UtcDatetime | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_DOCUMENT_CHARS)]


class Step(Strict):
    observation: Annotated[str, Field(max_length=MAX_TURN_CHARS)] = ""
    action: Annotated[str, Field(min_length=1, max_length=MAX_TURN_CHARS)]
    reward: float | None = Field(default=None, allow_inf_nan=False)
    subgoal: Annotated[str, Field(max_length=2_000)] = ""
    timestamp: UtcDatetime | None = None


class TrajectoryRecord(ScopeFields):
    type: Literal["trajectory"]
    id: Identifier
    task: Annotated[str, Field(min_length=1, max_length=2_000)]
    started_at: UtcDatetime | None = None
    steps: Annotated[list[Step], Field(min_length=1, max_length=10_000)]


Record = Annotated[ConversationRecord | DocumentRecord | TrajectoryRecord, Field(discriminator="type")]
RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)
