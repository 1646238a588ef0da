"""The aggregate block of a recall: the count, sum and per-period figures of a question that counts, adds up or
compares over time, computed over every matching memory (graph/aggregate/)."""

from __future__ import annotations

from datetime import date, datetime

import strawberry

from app.api.schema.provenance_types import ProvenanceEpisode
from graph.aggregate.models import AggregateItem, AggregateResult, PeriodTotal, UnitTotal


@strawberry.type(description="The amounts of one unit added up (units are never added together).")
class AggregateUnitTotal:
    unit: str
    sum: float
    count: int = strawberry.field(description="events stating an amount in this unit")

    @staticmethod
    def of(total: UnitTotal) -> AggregateUnitTotal:
        return AggregateUnitTotal(unit=total.unit, sum=total.sum, count=total.count)


@strawberry.type(description="The events of one period (day, week from Monday, month, year).")
class AggregatePeriod:
    start: date
    count: int
    sums: list[AggregateUnitTotal]

    @staticmethod
    def of(period: PeriodTotal) -> AggregatePeriod:
        return AggregatePeriod(
            start=period.start, count=period.count, sums=[AggregateUnitTotal.of(s) for s in period.sums]
        )


@strawberry.type(description="One event counted: the statement telling it, its amount, and the episodes proving it.")
class AggregateEvent:
    id: strawberry.ID
    text: str
    at: datetime | None = strawberry.field(description="when it happened (its own words), else when it was told")
    quantity: float | None = strawberry.field(description="the amount it states; null where it states none")
    unit: str | None
    similarity: float
    duplicates: list[strawberry.ID] = strawberry.field(description="statements telling it again, not counted again")
    provenance: list[ProvenanceEpisode]

    @staticmethod
    def of(item: AggregateItem) -> AggregateEvent:
        return AggregateEvent(
            id=strawberry.ID(item.id),
            text=item.text,
            at=item.at,
            quantity=item.quantity,
            unit=item.unit,
            similarity=item.similarity,
            duplicates=[strawberry.ID(d) for d in item.duplicates],
            provenance=[ProvenanceEpisode.of(p) for p in item.provenance],
        )


@strawberry.type(description="A count, sum or per-period comparison over every matching memory (docs/aggregation.md).")
class Aggregate:
    kind: str = strawberry.field(description="count, sum, compare or list")
    target: str = strawberry.field(description="what the question counts or adds up")
    period: str | None = strawberry.field(description="day, week, month or year, where the question asks per period")
    count: int | None = strawberry.field(description="distinct events (one told twice counts once); null: none match")
    sum: float | None = strawberry.field(description="null where no amount is stated or the units differ (see units)")
    unit: str | None
    units: list[AggregateUnitTotal] = strawberry.field(description="the sums by unit, listed apart")
    periods: list[AggregatePeriod]
    unquantified: int = strawberry.field(description="events stating no amount")
    scanned: int = strawberry.field(description="matching statements read, before retellings were folded")
    items: list[AggregateEvent]
    reason: str | None = strawberry.field(description="why a figure is missing: no match, no amount, mixed units")
    value: float | None = strawberry.field(
        description="the figure answering the question: the count, the count as memory states it, the sum or the "
        "difference (value_from); null: memory supports none"
    )
    value_unit: str | None
    value_from: str | None = strawberry.field(description="events, stated, sum or difference")

    @staticmethod
    def of(result: AggregateResult) -> Aggregate:
        return Aggregate(
            kind=result.kind,
            target=result.target,
            period=result.period,
            count=result.count,
            sum=result.sum,
            unit=result.unit,
            units=[AggregateUnitTotal.of(u) for u in result.units],
            periods=[AggregatePeriod.of(p) for p in result.periods],
            unquantified=result.unquantified,
            scanned=result.scanned,
            items=[AggregateEvent.of(i) for i in result.items],
            reason=result.reason,
            value=result.value,
            value_unit=result.value_unit,
            value_from=result.value_from,
        )
