"""The API process embeds queries on the configured number of torch threads (one by default): with two, a query's
forward pass waits at OpenMP's barrier whenever the workers keep the cores busy (see ApiSettings.torch_threads)."""

from __future__ import annotations

import torch

from app.api.services import ApiServices
from engram.settings import EngramSettings


def test_the_api_embeds_queries_on_its_torch_threads(settings: EngramSettings, services: ApiServices) -> None:
    assert settings.api.torch_threads == 1
    assert torch.get_num_threads() == settings.api.torch_threads
    assert services.embedder.encode(["a query of a few tokens"]).shape == (1, 384)
