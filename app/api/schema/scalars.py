"""Scalars whose parse errors say what is expected (strawberry's DateTime told a caller "invalid literal for int()")."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphql import GraphQLError


def _parse_datetime(value: object) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
        except ValueError:
            pass
    raise GraphQLError(
        f"DateTime must be an ISO 8601 date-time such as 2024-05-01T18:30:00Z, not {value!r}"
        " (a relative time like 'two weeks ago' goes in the query, read against `now`)"
    )


DateTime = strawberry.scalar(
    datetime,
    name="DateTime",
    description="Date with time (isoformat)",
    serialize=lambda value: value.isoformat(),
    parse_value=_parse_datetime,
)
