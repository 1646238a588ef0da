"""Relay-style connections over offset pages, with a cap on `first`."""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import strawberry

from app.api.errors import InvalidArgument

T = TypeVar("T")
S = TypeVar("S")
_PREFIX = "offset:"


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"{_PREFIX}{offset}".encode()).decode()


def decode_cursor(cursor: str | None) -> int:
    """The offset after `cursor` (0 without one)."""
    if cursor is None:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        if not text.startswith(_PREFIX):
            raise ValueError(text)
        offset = int(text[len(_PREFIX) :])
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidArgument(f"invalid cursor {cursor!r}: pass an endCursor from an earlier page") from exc
    if offset < 0:
        raise InvalidArgument(f"invalid cursor {cursor!r}")
    return offset + 1


def page_size(first: int, cap: int) -> int:
    if not 1 <= first <= cap:
        raise InvalidArgument(f"first must be between 1 and {cap}, got {first}")
    return first


@strawberry.type
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type
class Connection(Generic[T]):
    edges: list[Edge[T]]
    page_info: PageInfo
    total_count: int | None = strawberry.field(description="all items, where counting them is cheap")

    @classmethod
    def from_page(
        cls, rows: Sequence[S], offset: int, first: int, convert: Callable[[S], T], total: int | None = None
    ) -> Connection[T]:
        """`rows` is the page fetched with one extra row, which only says whether a next page exists."""
        edges = [Edge(cursor=encode_cursor(offset + i), node=convert(row)) for i, row in enumerate(rows[:first])]
        return cls(
            edges=edges,
            page_info=PageInfo(
                has_next_page=len(rows) > first,
                has_previous_page=offset > 0,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
            total_count=total,
        )
