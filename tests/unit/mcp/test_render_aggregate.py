"""The aggregate's line in the MCP recall tool's `context`: the figures, the units apart, the periods, or why not."""

from __future__ import annotations

from datetime import date

from app.mcp.models import AggregateAnswer, PeriodFigure, UnitSum
from app.mcp.render import render_aggregate


def answer(**fields: object) -> AggregateAnswer:
    base: dict[str, object] = {"kind": "sum", "target": "spend on the car", "period": None, "count": 2, "sum": None,
                               "unit": None, "units": [], "periods": [], "unquantified": 0, "scanned": 2,
                               "reason": None, "items": []}  # fmt: skip
    return AggregateAnswer.model_validate(base | fields)


def test_a_sum_is_said_with_its_unit() -> None:
    line = render_aggregate(answer(sum=65.0, unit="USD", units=[UnitSum(unit="USD", sum=65.0, count=2)]))
    assert line == "aggregate (sum of 'spend on the car'): count 2; sum 65 USD"


def test_mixed_units_are_said_apart_with_the_reason() -> None:
    units = [UnitSum(unit="EUR", sum=30.0, count=1), UnitSum(unit="USD", sum=40.0, count=1)]
    reason = "amounts in different units, listed apart: EUR, USD"
    line = render_aggregate(answer(units=units, reason=reason))
    assert "sums 30 EUR, 40 USD" in line and line.endswith(reason) and "sum 70" not in line


def test_periods_are_listed_in_order() -> None:
    periods = [
        PeriodFigure(start=date(2024, 3, 4), count=2, sums=[UnitSum(unit="km", sum=13.0, count=2)]),
        PeriodFigure(start=date(2024, 3, 11), count=1, sums=[]),
    ]
    line = render_aggregate(answer(kind="compare", period="week", periods=periods))
    assert "week of 2024-03-04: 2 (13 km); week of 2024-03-11: 1" in line
