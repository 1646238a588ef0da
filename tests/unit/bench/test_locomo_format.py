"""The benchmarks' LoCoMo converter (bench/locomo_format.py): LoCoMo samples as generic conversation records."""

import json
from datetime import UTC, datetime

import pytest

from bench.common import LOCOMO_PATH
from bench.locomo_format import locomo_records, locomo_to_records, parse_locomo_datetime
from engram.formats.loading import InputFormat, InvalidInput, parse_payload

SAMPLE = {
    "sample_id": "conv-x",
    "qa": [{"question": "never read", "answer": "x", "evidence": ["D1:1"], "category": 1}],
    "observation": {"never": "read"},
    "conversation": {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"},
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "Look", "blip_caption": "a photo of a lake"},
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [{"speaker": "Caroline", "dia_id": "D2:1", "text": "Hi again"}],
    },
}


def test_dates_are_parsed() -> None:
    assert parse_locomo_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_sessions_turns_ids_and_captions() -> None:
    (record,) = locomo_records(json.dumps([SAMPLE]))
    assert record.id == "conv-x"  # type: ignore[union-attr]
    sessions = record.sessions  # type: ignore[union-attr]
    assert [s.id for s in sessions] == ["session_1", "session_2"]
    assert [t.id for t in sessions[0].turns] == ["D1:1", "D1:2"]
    assert sessions[0].turns[1].image_caption == "a photo of a lake"
    assert sessions[1].started_at == datetime(2023, 6, 27, 10, 37, tzinfo=UTC)


def test_the_records_are_the_generic_json_format() -> None:
    """What the converter writes is plain JSON that the public JSONL format ingests as it is."""
    lines = "\n".join(json.dumps(r) for r in locomo_to_records([SAMPLE]))
    (record,) = parse_payload(lines, InputFormat.JSONL)
    assert record == locomo_records(json.dumps([SAMPLE]))[0]


def test_a_turn_without_text_is_reported() -> None:
    bad = json.loads(json.dumps(SAMPLE))
    del bad["conversation"]["session_1"][0]["text"]
    with pytest.raises(InvalidInput, match=r"locomo conversation 1 \(id 'conv-x'\): field 'sessions.0.turns.0.text'"):
        locomo_records(json.dumps([bad]))


@pytest.mark.skipif(not LOCOMO_PATH.exists(), reason="shared LoCoMo data not present")
def test_development_split_has_3435_turns() -> None:
    records = locomo_records(LOCOMO_PATH.read_text())
    assert len(records) == 6
    assert sum(len(s.turns) for r in records for s in r.sessions) == 3435  # type: ignore[union-attr]
