import json
import time

import pytest

from engram.formats.loading import InputFormat, InvalidInput, parse_payload, validate_records
from engram.formats.records import ConversationRecord, DocumentRecord, TrajectoryRecord

CONVERSATION = {
    "type": "conversation",
    "id": "chat-1",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2023-05-08T13:56:00Z",
            "turns": [{"speaker": "Ann", "text": "I adopted a cat yesterday.", "id": "D1:1"}],
        }
    ],
}
DOCUMENT = {"type": "document", "id": "doc-1", "text": "Paris is the capital of France.\n\nIt has many museums."}
TRAJECTORY = {"type": "trajectory", "id": "run-1", "task": "cook", "steps": [{"action": "boil water", "reward": 1}]}


def test_json_list_of_every_record_type() -> None:
    records = parse_payload(json.dumps([CONVERSATION, DOCUMENT, TRAJECTORY]), InputFormat.JSON)
    assert [type(r) for r in records] == [ConversationRecord, DocumentRecord, TrajectoryRecord]
    assert records[0].sessions[0].turns[0].id == "D1:1"  # type: ignore[union-attr]


def test_jsonl_one_record_per_line_and_blank_lines_ignored() -> None:
    text = "\n".join([json.dumps(CONVERSATION), "", json.dumps(DOCUMENT)])
    assert len(parse_payload(text, InputFormat.JSONL)) == 2


def test_malformed_record_names_the_record_and_field() -> None:
    bad = json.loads(json.dumps(CONVERSATION))
    bad["sessions"][0]["turns"][0]["speaker"] = ""
    with pytest.raises(InvalidInput) as info:
        parse_payload(json.dumps([DOCUMENT, bad]), InputFormat.JSON)
    (error,) = info.value.errors
    assert "record 2 (id 'chat-1')" in error
    assert "sessions.0.turns.0.speaker" in error


def test_every_bad_record_is_reported_at_once() -> None:
    payload = [{"type": "document", "id": "d", "text": ""}, {"type": "video", "id": "v"}, {"type": "trajectory"}]
    with pytest.raises(InvalidInput) as info:
        parse_payload(json.dumps(payload), InputFormat.JSON)
    text = "\n".join(info.value.errors)
    assert "record 1" in text and "record 2" in text and "record 3" in text


@pytest.mark.parametrize(
    ("payload", "fmt", "message"),
    [
        ("{not json", InputFormat.JSON, "not valid JSON"),
        ('{"type": "document", "id": "a", "text": "x"}\n{oops', InputFormat.JSONL, "line 2: not valid JSON"),
        ("[]", InputFormat.JSON, "no records"),
        ('"a string"', InputFormat.JSON, "must be a record object or a list"),
    ],
)
def test_unparseable_payloads(payload: str, fmt: InputFormat, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_payload(payload, fmt)


def test_oversize_text_and_unknown_fields_are_rejected() -> None:
    huge = dict(CONVERSATION, sessions=[{"id": "s", "turns": [{"speaker": "A", "text": "x" * 20_001}]}])
    with pytest.raises(InvalidInput, match="at most 20000 characters"):
        parse_payload(json.dumps(huge), InputFormat.JSON)
    with pytest.raises(InvalidInput, match="Extra inputs are not permitted"):
        parse_payload(json.dumps(dict(DOCUMENT, secret="x")), InputFormat.JSON)


def test_duplicate_record_ids_are_rejected() -> None:
    with pytest.raises(InvalidInput, match="duplicate record id"):
        parse_payload(json.dumps([DOCUMENT, DOCUMENT]), InputFormat.JSON)


def test_naive_timestamps_are_utc() -> None:
    record = dict(CONVERSATION, sessions=[dict(CONVERSATION["sessions"][0], started_at="2023-05-08T13:56:00")])  # type: ignore[arg-type]
    (parsed,) = parse_payload(json.dumps(record), InputFormat.JSON)
    assert parsed.sessions[0].started_at.utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def test_validation_time_grows_linearly_with_the_number_of_records() -> None:
    # Duplicate ids were found with list.count per record: 10,000 small records took ~2 s, ~90x the time of 1,000.
    records = [{"type": "document", "id": f"d{i}", "text": "x"} for i in range(10_000)]

    def best_of_five(count: int) -> float:
        # CPU time of this process, best of five: a machine busy with other work does not count against it.
        timings = []
        for _ in range(5):
            started = time.process_time()
            validate_records(records[:count])
            timings.append(time.process_time() - started)
        return min(timings)

    assert best_of_five(10_000) < 40 * best_of_five(1_000)  # linear: ~10x; quadratic: ~100x


def _chat(*sessions: tuple[str, list[str | None]]) -> dict[str, object]:
    return {
        "type": "conversation",
        "id": "chat-1",
        "sessions": [
            {"id": sid, "turns": [{"speaker": "Ann", "text": f"turn {n}", "id": tid} for n, tid in enumerate(turns)]}
            for sid, turns in sessions
        ],
    }


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (_chat(("s1", ["t1", "t2", "t1"])), "field 'sessions.0': Value error, duplicate turn id 't1' (turns 1 and 3)"),
        # A turn without an id is named by its position: "1" is the second turn's name.
        (_chat(("s1", [None, None, "1"])), "field 'sessions.0': Value error, duplicate turn id '1' (turns 2 and 3)"),
        (_chat(("s1", ["t1"]), ("s2", ["t1"]), ("s1", ["t2"])), "duplicate session id 's1' (sessions 1 and 3)"),
    ],
)
def test_duplicate_session_and_turn_ids_are_refused_naming_the_id(record: dict[str, object], problem: str) -> None:
    # Ids name sources and episodes: duplicates were silently collapsed into one.
    with pytest.raises(InvalidInput) as refused:
        validate_records([record])
    assert len(refused.value.errors) == 1 and problem in refused.value.errors[0]


def test_the_same_turn_id_in_two_sessions_is_fine() -> None:
    assert len(validate_records([_chat(("s1", ["t1", "t2"]), ("s2", ["t1", "t2"]))])) == 1
