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
    """What to forget. Knowledge proven only by forgotten episodes goes with them."""

    episode_ids: list[str] = Field(alias="episodeIds", default_factory=lambda: [])
    source_ids: list[str] = Field(alias="sourceIds", default_factory=lambda: [])
    knowledge_ids: list[str] = Field(alias="knowledgeIds", default_factory=lambda: [])
    "propositions or prescriptions themselves (their episodes stay)"


class IngestInput(BaseModel):
    """Either `records` (JSON) or `payload` (text in `format`), not both."""

    records: Optional[Any] = None
    "a record or a list of records: conversation, document or trajectory"
    payload: Optional[str] = None
    "a JSON or JSONL document as text"
    format: InputFormat = InputFormat.JSONL
