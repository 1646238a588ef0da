import pytest

from engram.formats.loading import InputFormat, InvalidInput, parse_payload
from engram.json_depth import JsonTooDeep, json_depth, loads_bounded


@pytest.mark.parametrize(
    ("text", "depth"),
    [("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ('["[[[[", "}}}"]', 1), ('["\\"[[["]', 1)],
)
def test_depth_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert json_depth(text) == depth


def test_a_deep_text_is_refused_before_it_is_parsed() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(JsonTooDeep, match="deeper than 64 levels"):
        loads_bounded(deep)
    assert loads_bounded("[" * 64 + "]" * 64, 64) is not None


def test_an_ingest_file_nested_too_deep_is_invalid_input_not_a_crash() -> None:
    with pytest.raises(InvalidInput, match="deeper than 64 levels"):
        parse_payload("[" * 100_000 + "]" * 100_000, InputFormat.JSON)
    with pytest.raises(InvalidInput, match="line 2: JSON nested deeper"):
        parse_payload('{"type": "document"}\n' + "[" * 1000 + "]" * 1000, InputFormat.JSONL)
