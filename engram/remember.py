"""One line to remember: a text becomes turns of its scope's running conversation (the ingest format's record).

Every remember of a (user, agent, session) goes to the conversation `remember`, session `session` (or `default`):
one source per session, one turn per text (per passage of an over-long text), spoken by the user unless told
otherwise, at `at` (now by default). The turn's id is the caller's `id`, or one derived from the time and the text,
so resending the same remember (same `at`) writes nothing new.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from engram.formats.passages import PASSAGE_MAX_CHARS, split_passages
from engram.formats.records import ConversationRecord

RECORD_ID = "remember"
DEFAULT_SESSION = "default"
DEFAULT_SPEAKER = "user"


def remember_record(
    text: str,
    *,
    user: str | None = None,
    agent: str | None = None,
    session: str | None = None,
    speaker: str | None = None,
    at: datetime | None = None,
    memory_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> ConversationRecord:
    """The record a remember writes (validated: an empty text or bad scope raises pydantic's ValidationError)."""
    when = (at or datetime.now(UTC)).astimezone(UTC)
    stripped = text.strip()
    # A text longer than a passage is split where a document would be: each passage a turn of its own.
    parts = split_passages(stripped) if len(stripped) > PASSAGE_MAX_CHARS else [stripped]
    base = memory_id or f"{when:%Y%m%dT%H%M%S%f}-{hashlib.sha256(stripped.encode()).hexdigest()[:12]}"
    turns = [
        {
            "speaker": speaker or user or DEFAULT_SPEAKER,
            "text": part,
            "timestamp": when,
            "id": base if len(parts) == 1 else f"{base}#{index}",
            "metadata": metadata or {},  # the memory's own: the session's source is shared by every remember
        }
        for index, part in enumerate(parts)
    ]
    return ConversationRecord.model_validate(
        {
            "type": "conversation",
            "id": RECORD_ID,
            "user": user,
            "agent": agent,
            "session": session,
            "sessions": [{"id": session or DEFAULT_SESSION, "turns": turns}],
        }
    )
