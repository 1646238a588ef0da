"""What the aggregation path returns beside recall's items: the count, the sum with its unit (or the units apart), the
per-period figures and every event counted, each with the episodes that prove it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from pydantic import BaseModel

from graph.provenance import Provenance


@dataclass(frozen=True)
class Figure:
    """The figure answering the question (graph/aggregate/answer.py)."""

    value: float
    unit: str | None
    source: str  # events (counted), stated (as the memory states it), sum, difference


class AggregateItem(BaseModel):
    id: str  # the statement standing for the event
    text: str
    at: datetime | None  # when it happened (its own words), else when it was told
    quantity: float | None  # the amount it states, in `unit`; None where it states none (or several)
    unit: str | None
    similarity: float  # its vector score to the question
    duplicates: list[str]  # statements telling the same event again, not counted again
    provenance: list[Provenance]


class UnitTotal(BaseModel):
    unit: str
    sum: float
    count: int  # events stating an amount in this unit


class PeriodTotal(BaseModel):
    start: date  # the period's first day (a week starts on Monday)
    count: int
    sums: list[UnitTotal]


class AggregateResult(BaseModel):
    kind: str  # count, sum, compare or list (graph/aggregate/intent.py)
    target: str  # what the question counts or adds up
    period: str | None  # day, week, month or year, where the question asks per period
    count: int | None  # distinct events; None where no memory matches
    sum: float | None  # None where no event states an amount, or amounts are in different units
    unit: str | None
    units: list[UnitTotal]  # the sums by unit (several: the units listed apart, never added)
    periods: list[PeriodTotal]
    unquantified: int  # events stating no amount
    scanned: int  # matching statements read, before duplicates were folded
    items: list[AggregateItem]
    reason: str | None = None  # why a figure is missing (no memory matches, no amount stated, mixed units)
    value: float | None = None  # the figure answering the question (graph/aggregate/answer.py), None: none supported
    value_unit: str | None = None
    value_from: str | None = None  # events (counted), stated (the memory's own latest count), sum or difference
