"""Parse a payload (a JSON record or list, or JSONL) into validated records, or explain every bad one.

A job is validated all-or-nothing before anything is written: one malformed record rejects the job
with a message per bad record naming its position and field.
"""

from __future__ import annotations

import json
from collections import Counter
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from engram.formats.records import MAX_RECORDS_PER_JOB, RECORD_ADAPTER, ConversationRecord, Record
from engram.json_depth import JsonTooDeep, loads_bounded

RECORD_TYPES = {"conversation", "document", "trajectory"}


class InputFormat(StrEnum):
    JSONL = "jsonl"
    JSON = "json"


class InvalidInput(ValueError):
    """The payload cannot be ingested; `errors` has one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        shown = "\n".join(f"  - {e}" for e in errors[:20])
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        super().__init__(f"invalid input ({len(errors)} problem(s)):\n{shown}{more}")


def _describe(label: str, exc: ValidationError) -> list[str]:
    problems = []
    for err in exc.errors(include_url=False):
        parts = list(err["loc"])
        if parts and parts[0] in RECORD_TYPES:
            parts = parts[1:]  # the union's tag, not a field of the record
        loc = ".".join(str(part) for part in parts) or "(record)"
        problems.append(f"{label}: field '{loc}': {err['msg']}")
    return problems


def validate_records(raw: list[Any], label: str = "record", limit: int | None = MAX_RECORDS_PER_JOB) -> list[Record]:
    """Every record validated (`limit`: most records accepted, None for a bulk import, which writes in batches)."""
    if limit is not None and len(raw) > limit:
        raise InvalidInput([f"{len(raw)} records in one job; the limit is {limit}"])
    if not raw:
        raise InvalidInput(["no records"])
    records: list[Record] = []
    errors: list[str] = []
    for index, item in enumerate(raw):
        name = f"{label} {index + 1}"
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            name += f" (id {item['id']!r})"
        try:
            records.append(RECORD_ADAPTER.validate_python(item))
        except ValidationError as exc:
            errors.extend(_describe(name, exc))
    # One pass (list.count per record made this quadratic). A conversation writes a source per session, so two
    # records of one conversation id collide only where they name the same session (an export splits a conversation
    # whose sessions carry different scopes).
    counts = Counter(key for r in records for key in _written_keys(r))
    duplicates = sorted({f"{t} {i!r}" for (t, i, _), n in counts.items() if n > 1})
    errors.extend(f"duplicate record id: {d}" for d in duplicates)
    if errors:
        raise InvalidInput(errors)
    return records


def _written_keys(record: Record) -> list[tuple[str, str, str]]:
    """What a record writes, as (type, id, session): one key per session of a conversation, one otherwise."""
    if isinstance(record, ConversationRecord):
        return [(record.type, record.id, session.id) for session in record.sessions]
    return [(record.type, record.id, "")]


def parse_payload(text: str, input_format: InputFormat, limit: int | None = MAX_RECORDS_PER_JOB) -> list[Record]:
    """Records from the text of a file or request body in `input_format` (at most `limit`, None: any number)."""
    if input_format is InputFormat.JSONL:
        raw: list[Any] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                raw.append(loads_bounded(line))
            except json.JSONDecodeError as exc:
                raise InvalidInput([f"line {number}: not valid JSON: {exc.msg} (column {exc.colno})"]) from exc
            except JsonTooDeep as exc:
                raise InvalidInput([f"line {number}: {exc}"]) from exc
        return validate_records(raw, label="line-record", limit=limit)
    try:
        data = loads_bounded(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput([f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"]) from exc
    except JsonTooDeep as exc:
        raise InvalidInput([str(exc)]) from exc
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise InvalidInput(["a JSON payload must be a record object or a list of records"])
    return validate_records(data, limit=limit)
