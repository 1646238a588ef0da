"""LoCoMo conversations (a JSON list of samples) as Engram's generic conversation records.

LoCoMo is benchmark data, not an input format of the product: the benchmarks convert it here into the same JSON
records anyone ingests (`type: conversation`, sessions of turns) and ingest those. Only the conversation is
converted: the generated `observation`, `session_summary`, `event_summary` and the `qa` annotations are never read.
Turn ids (`dia_id`, e.g. "D1:3") become the turns' ids, so evidence can be matched against Episode external ids.

To ingest the conversations with the CLI:

    ~/.cache/engram/venv/bin/python -m bench.locomo_format locomo_dev6.json locomo_dev6.jsonl
    ~/.cache/engram/venv/bin/engram ingest locomo_dev6.jsonl --space locomo
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.formats.loading import validate_records
from engram.formats.records import Record

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
    """Generic conversation records (JSON-ready dicts) from LoCoMo samples; a malformed sample passes through as it
    is, for validation to name what is missing."""
    if not isinstance(data, list):
        data = [data]
    records: list[Any] = []
    for sample in data:
        conversation = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(conversation, dict):
            records.append(sample)
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
                    "started_at": parse_locomo_datetime(stamp).isoformat() if stamp else None,
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


def locomo_records(text: str) -> list[Record]:
    """The validated conversation records of a LoCoMo file's text (raises InvalidInput, naming each bad sample)."""
    return validate_records(locomo_to_records(json.loads(text)), label="locomo conversation")


def main() -> None:
    parser = argparse.ArgumentParser(description="Convert LoCoMo samples to Engram conversation records (JSONL)")
    parser.add_argument("source", type=Path, help="a LoCoMo JSON file (a list of samples)")
    parser.add_argument("target", type=Path, help="the JSONL file to write, one conversation record a line")
    args = parser.parse_args()
    records = locomo_records(args.source.read_text(encoding="utf-8"))
    lines = [json.dumps(r.model_dump(mode="json", exclude_none=True), ensure_ascii=False) for r in records]
    args.target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} conversation record(s) to {args.target}")


if __name__ == "__main__":
    main()
