"""Importer for the LoCoMo conversation format (a JSON list of samples).

Only the conversation is input: the generated `observation`, `session_summary`, `event_summary` and the
`qa` annotations are never read. Turn ids (`dia_id`, e.g. "D1:3") are kept as Episode external ids.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

_SESSION_KEY = re.compile(r"^session_(\d+)$")


def parse_locomo_datetime(value: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" -> 2023-05-08T13:56Z (LoCoMo gives no zone; taken as UTC)."""
    cleaned = re.sub(r"\s+", " ", value.strip())
    return datetime.strptime(cleaned, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def _turn(raw: dict[str, Any]) -> dict[str, Any]:
    turn: dict[str, Any] = {"speaker": raw.get("speaker"), "text": raw.get("text"), "id": raw.get("dia_id")}
    if raw.get("blip_caption"):
        turn["image_caption"] = raw["blip_caption"]
    return turn


def locomo_to_records(data: Any) -> list[Any]:
    """Generic conversation records from LoCoMo samples (malformed samples pass through for validation)."""
    if not isinstance(data, list):
        data = [data]
    records: list[Any] = []
    for sample in data:
        conversation = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(conversation, dict):
            records.append(sample)  # let validation name what is missing
            continue
        sessions = []
        numbers = sorted(int(m.group(1)) for key in conversation if (m := _SESSION_KEY.match(key)))
        for n in numbers:
            turns = conversation[f"session_{n}"]
            if not turns:
                continue
            stamp = conversation.get(f"session_{n}_date_time")
            sessions.append(
                {
                    "id": f"session_{n}",
                    "started_at": parse_locomo_datetime(stamp) if stamp else None,
                    "turns": [_turn(t) for t in turns],
                }
            )
        speakers = f"{conversation.get('speaker_a', '?')} and {conversation.get('speaker_b', '?')}"
        records.append(
            {
                "type": "conversation",
                "id": str(sample.get("sample_id", "")),
                "title": f"Conversation between {speakers}",
                "sessions": sessions,
            }
        )
    return records
