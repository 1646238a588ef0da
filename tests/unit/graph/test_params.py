from __future__ import annotations

import numpy as np

from graph.params import VectorParam, vector_param


def test_a_vector_param_is_the_vectors_floats_with_a_short_repr() -> None:
    vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    param = vector_param(vector)
    assert isinstance(param, list) and isinstance(param, VectorParam)
    assert param == vector.tolist() and all(type(x) is float for x in param)
    assert repr(param) == "<vector of 384 floats>"
    assert len(repr({"rows": [{"embedding": param}] * 1000})) < 40_000  # what the driver formats per RUN message
