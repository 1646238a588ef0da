"""LangGraph values as Engram memories: a text to remember, and metadata to filter on.

A value `{"content": "Ana is vegetarian", "category": "food"}` is remembered as the text "Ana is vegetarian" (the
first of the store's `text_fields` that holds a non-blank string), and its other top-level fields become the memory's
metadata, which Engram filters on exactly (`search(filter={"category": "food"})` is answered by the server). Every
other value (nested fields, lists, no text field, a string over 256 characters in a field) is remembered as its JSON
text, and its flat fields are copied into the metadata all the same. Either way `get` gives back the value put.

The store keeps four metadata keys of its own (RESERVED), so a value has at most 12 flat fields: strings of at most
256 characters, numbers and booleans, under names of letters, digits and '_' (Engram's metadata).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from engram.formats.records import MAX_TURN_CHARS
from engram.scope import MAX_METADATA_KEYS, MAX_METADATA_STRING, METADATA_KEY

MARKER = "lg_store"  # True on every memory this store writes: searches and listings see only those
ITEM_ID = "lg_id"  # the item's id (namespaces.item_id): get looks an item up by it
FIELD = "lg_field"  # the value's field that holds the text, or JSON_TEXT: the text is the value's JSON
KEY = "lg_key"  # the item's key: a search finds the items its recalled memories come from by it
RESERVED = frozenset({MARKER, ITEM_ID, FIELD, KEY})
JSON_TEXT = "$"
MAX_FIELDS = MAX_METADATA_KEYS - len(RESERVED)
DEFAULT_TEXT_FIELDS = ("content", "text", "memory")


def is_flat(name: Any, value: Any) -> bool:
    """Whether a top-level field fits Engram's metadata as it is."""
    if not isinstance(name, str) or name in RESERVED or not METADATA_KEY.match(name):
        return False
    if isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str) and len(value) <= MAX_METADATA_STRING


def encode(value: Mapping[str, Any], text_fields: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """The text to remember and the metadata (the store's own keys but the item's id and key) for a value.
    Raises ValueError for a value Engram cannot hold."""
    if not isinstance(value, Mapping) or not all(isinstance(name, str) for name in value):
        raise ValueError("a value is a mapping with string keys")
    text_field = next((f for f in text_fields if isinstance(value.get(f), str) and value[f].strip()), None)
    flat = {k: v for k, v in value.items() if k != text_field and is_flat(k, v)}
    if len(flat) > MAX_FIELDS:
        raise ValueError(
            f"{len(flat)} top-level fields of strings, numbers or booleans; at most {MAX_FIELDS}: they are the "
            "memory's metadata, which Engram holds at most 16 of (the store keeps 4 for itself)"
        )
    if text_field is not None and len(flat) == len(value) - 1:
        text, field = str(value[text_field]), text_field
    else:
        try:
            text, field = json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False), JSON_TEXT
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a value must be JSON: {exc}") from exc
    if len(text) > MAX_TURN_CHARS:
        raise ValueError(f"the memory's text is {len(text)} characters; Engram holds at most {MAX_TURN_CHARS}")
    return text, {MARKER: True, FIELD: field, **flat}


def decode(text: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The value a memory was put as (encode's inverse)."""
    field = metadata.get(FIELD, JSON_TEXT)
    if field == JSON_TEXT:
        loaded = json.loads(text)
        return dict(loaded) if isinstance(loaded, dict) else {"value": loaded}
    return {str(field): text, **{k: v for k, v in metadata.items() if k not in RESERVED}}


def server_filter(filter_: Mapping[str, Any] | None, text_fields: tuple[str, ...]) -> dict[str, Any]:
    """The part of a LangGraph filter Engram answers itself: exact matches on flat fields (never the text fields,
    which are no metadata). The whole filter is checked again on the values (`matches`)."""
    return {k: v for k, v in (filter_ or {}).items() if k not in text_fields and is_flat(k, v)}


def matches(value: Mapping[str, Any], filter_: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter: exact matches, or the operators $eq, $ne, $gt, $gte, $lt, $lte, on top-level fields."""
    for name, wanted in (filter_ or {}).items():
        have = value.get(name)
        if isinstance(wanted, Mapping) and wanted and all(str(op).startswith("$") for op in wanted):
            if not all(_compare(have, op, operand) for op, operand in wanted.items()):
                return False
        elif have != wanted:
            return False
    return True


def _compare(have: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(have == operand)
    if op == "$ne":
        return bool(have != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unknown filter operator {op!r}: $eq, $ne, $gt, $gte, $lt, $lte")
    try:
        if op == "$gt":
            return bool(have > operand)
        if op == "$gte":
            return bool(have >= operand)
        if op == "$lt":
            return bool(have < operand)
        return bool(have <= operand)
    except TypeError:
        return False
