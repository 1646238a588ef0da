"""Whether recall's aggregate answers a counting question: the question's expected answer read as a number (a digit
string, a number word, an amount with its unit) and compared with the aggregate's count, or its sum."""

from __future__ import annotations

import re
from typing import Any

from graph.aggregate.models import AggregateResult
from graph.aggregate.quantity import NUMBER_WORDS, quantities

_NUMBER = re.compile(r"^\s*\$?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")
_WORD = re.compile(r"^\s*([a-z]+)\b", re.IGNORECASE)


def numeric_answer(answer: str) -> float | None:
    """The number an answer starts with ("4", "three", "$1,300", "140 hours", "8 meals"); None if it is not one."""
    stated = quantities(answer)
    if stated and answer.strip().lower().startswith(stated[0].text.lower()[:1]):
        return stated[0].value
    match = _NUMBER.match(answer)
    if match:
        return float(match.group(1).replace(",", ""))
    word = _WORD.match(answer)
    if word and word.group(1).lower() in NUMBER_WORDS and word.group(1).lower() not in ("a", "an"):
        return NUMBER_WORDS[word.group(1).lower()]
    return None


def judged(question_id: str, question: str, answer: str, aggregate: AggregateResult | None) -> dict[str, Any]:
    """One counting question's row: the expected number, the aggregate's figures, whether its answering figure
    (`value`: the count, the count as memory states it, the sum or the difference) equals it; `count_or_sum` is the
    earlier, looser criterion (either the events' count or the sum equals it)."""
    expected = numeric_answer(answer)
    count = aggregate.count if aggregate else None
    total = aggregate.sum if aggregate else None
    value = aggregate.value if aggregate else None
    equal = expected is not None and value is not None and abs(value - expected) < 0.01
    loose = expected is not None and any(v is not None and abs(v - expected) < 0.01 for v in (count, total))
    return {
        "id": question_id,
        "question": question,
        "answer": answer,
        "expected": expected,
        "kind": aggregate.kind if aggregate else None,
        "count": count,
        "sum": total,
        "unit": aggregate.unit if aggregate else None,
        "reason": aggregate.reason if aggregate else None,
        "value": value,
        "value_unit": aggregate.value_unit if aggregate else None,
        "value_from": aggregate.value_from if aggregate else None,
        "equal": equal,
        "count_or_sum": loose,
    }
