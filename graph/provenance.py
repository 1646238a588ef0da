"""The episode that proves a returned memory (recall's items, the aggregate's items)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class Provenance(BaseModel):
    episode_id: str
    external_id: str
    source_id: str
    speaker: str
    text: str
    occurred_at: datetime | None
