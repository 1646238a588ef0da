from datetime import datetime
from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import InputFormat


class CorrectInput(BaseModel):
    """A user's correction of a fact: the new statement supersedes the old one."""

    proposition_id: str = Field(alias="propositionId")
    text: str
    valid_from: Optional[datetime] = Field(alias="validFrom", default=None)
    "when the corrected fact became true"
    reason: str = ""


class ForgetInput(BaseModel):
    """What to forget: ids (internal, or the app's own given at ingest), or what matches agent, session and metadata. Knowledge proven only by forgotten episodes goes with them."""

    episode_ids: list[str] = Field(alias="episodeIds", default_factory=lambda: [])
    "episode ids, the app's turn ids ('s2-3', refused where several sources have it) or 'record/session/turn'"
    source_ids: list[str] = Field(alias="sourceIds", default_factory=lambda: [])
    "source ids, or the app's record ids ('client-chat': every session of it) or 'record/session'"
    knowledge_ids: list[str] = Field(alias="knowledgeIds", default_factory=lambda: [])
    "propositions or prescriptions themselves (their episodes stay)"
    agent: Optional[str] = None
    "forget what was made with this agent"
    session: Optional[str] = None
    "forget what was said in this session"
    metadata: Optional[Any] = None
    "forget what carries this metadata (exact)"


class IngestInput(BaseModel):
    """Either `records` (JSON) or `payload` (text in `format`), not both."""

    records: Optional[Any] = None
    "a record or a list of records: conversation, document or trajectory"
    payload: Optional[str] = None
    "a JSON or JSONL document as text"
    format: InputFormat = InputFormat.JSONL
