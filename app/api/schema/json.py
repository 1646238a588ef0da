"""The JSON scalar for free-form maps (trace details, value-function parts, job counts)."""

from __future__ import annotations

from typing import cast

from strawberry.scalars import JSON


def to_json(value: object) -> JSON:
    """Any JSON-serialisable value as the JSON scalar (strawberry's JSON is a NewType over object)."""
    return cast(JSON, value)
