"""Which queue an ingest stage goes to: extraction joins embedding on `gpu` only when a language model extracts."""

from __future__ import annotations

import pytest

from workers.tasks import ingest


def test_extraction_goes_to_the_gpu_queue_only_with_a_model_extractor(monkeypatch: pytest.MonkeyPatch) -> None:
    ingest._gpu_stages.cache_clear()
    monkeypatch.delenv("ENGRAM_EXTRACTOR_KIND", raising=False)
    assert ingest._gpu_stages() == {"embed"}
    ingest._gpu_stages.cache_clear()
    monkeypatch.setenv("ENGRAM_EXTRACTOR_KIND", "openai")
    monkeypatch.setenv("ENGRAM_EXTRACTOR_BASE_URL", "http://127.0.0.1:9/v1")
    try:
        assert ingest._gpu_stages() == {"embed", "extract"}
    finally:
        ingest._gpu_stages.cache_clear()
