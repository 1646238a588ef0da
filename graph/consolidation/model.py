"""The in-memory view of a space's current knowledge that the consolidation rules decide on."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

# How much a kind of source is trusted when claims conflict (a user's correction most).
SOURCE_QUALITY = {"correction": 1.0, "document": 0.85, "conversation": 0.7, "trajectory": 0.6}
DEFAULT_SOURCE_QUALITY = 0.6


@dataclass
class PropositionView:
    id: str
    text: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    valid_from: datetime | None = None
    recorded_at: datetime | None = None
    confidence: float = 0.7
    support: int = 1  # episodes that prove it
    source_quality: float = DEFAULT_SOURCE_QUALITY
    concept_ids: frozenset[str] = field(default_factory=frozenset)
    fact: bool = False  # an atomic fact (engram/facts/): its changes are planned from its fields (fact_changes.py)


def native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


def view_of(row: dict[str, Any]) -> PropositionView:
    kinds = [k for k in row.get("source_kinds") or [] if k]
    quality = max((SOURCE_QUALITY.get(k, DEFAULT_SOURCE_QUALITY) for k in kinds), default=DEFAULT_SOURCE_QUALITY)
    return PropositionView(
        id=row["id"],
        text=row["text"] or "",
        subject=row.get("subject") or "",
        predicate=row.get("predicate") or "",
        object=row.get("object") or "",
        valid_from=native(row.get("valid_from")),
        recorded_at=native(row.get("recorded_at")),
        confidence=float(row["confidence"]) if row.get("confidence") is not None else 0.7,
        support=int(row.get("support") or 0),
        source_quality=quality,
        concept_ids=frozenset(row.get("concept_ids") or []),
        fact=bool(row.get("fact")),
    )


def unit_rows(vectors: list[list[float]], dimensions: int = 384) -> NDArray[np.float32]:
    """Row-normalised float32 matrix (cosine = dot product)."""
    if not vectors:
        return np.zeros((0, dimensions), np.float32)
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: NDArray[np.float32] = matrix / norms
    return unit


def time_key(value: datetime | None) -> float:
    return value.timestamp() if value is not None else float("-inf")
