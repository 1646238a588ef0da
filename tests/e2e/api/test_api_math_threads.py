"""The API process runs its native math on the configured number of threads (one by default): with two, a query's
forward pass waits at OpenMP's barrier whenever the workers keep the cores busy, and numpy's spinning BLAS threads
double a recall's CPU (see engram/native_threads.py)."""

from __future__ import annotations

from app.api.services import ApiServices
from engram.native_threads import math_threads
from engram.settings import EngramSettings


def test_the_api_runs_torch_and_blas_on_its_math_threads(settings: EngramSettings, services: ApiServices) -> None:
    assert settings.api.math_threads == 1
    assert math_threads() == {"torch": 1, "blas": 1, "openmp": 1}
    assert services.embedder.encode(["a query of a few tokens"]).shape == (1, 384)
