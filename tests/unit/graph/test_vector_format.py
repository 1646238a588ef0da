"""The vectors file's values (graph/vector_format.py): vectors as base64 float32 and Neo4j times round-trip exactly;
a vector of the wrong length or with a non-finite value, and a map property, are refused saying why."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import neo4j.time
import numpy as np
import pytest

from graph.vector_format import decode_properties, decode_vector, encode_properties, encode_vector


def test_vectors_and_properties_round_trip_exactly() -> None:
    vector = np.random.default_rng(1).standard_normal(384).astype(np.float32)
    assert np.array_equal(decode_vector(encode_vector(vector), 384), vector)
    props = {
        "text": "Tom moved to Madrid", "seq": 3, "confidence": 0.8125, "terms": ["a", "b"], "flag": True,
        "occurred_at": neo4j.time.DateTime.from_native(datetime(2024, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)),
        "day": neo4j.time.Date(2024, 3, 1), "missing": None,
    }  # fmt: skip
    decoded = decode_properties(encode_properties(props))
    assert decoded == props  # the same instants and values (times carry their offset: +00:00)
    assert decoded["occurred_at"].utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    ("values", "why"),
    [(np.zeros(383, "<f4"), "383 dimensions"), (np.full(384, np.nan, "<f4"), "not a finite number")],
)
def test_a_vector_of_the_wrong_length_or_not_finite_is_refused(values: np.ndarray, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        decode_vector(base64.b64encode(values.tobytes()).decode(), 384)


def test_a_map_property_is_refused() -> None:
    with pytest.raises(ValueError, match="map"):
        decode_properties({"metadata": {"topic": "home"}})
