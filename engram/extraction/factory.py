"""Builds the configured proposition extractor (offline rules by default)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from engram.extraction.base import ExtractorKind, PropositionExtractor
from engram.extraction.offline import OfflineExtractor


class ExtractionSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_EXTRACTOR_", env_file=".env", extra="ignore")

    kind: ExtractorKind = ExtractorKind.OFFLINE
    model: str = ""  # a local transformers model path, or the served model name for `openai`
    base_url: str = ""  # OpenAI-compatible server (e.g. vLLM), for `openai`
    api_key: str = "EMPTY"
    max_new_tokens: int = 512
    # With a local model: name each fact's concepts as existing keys under the key-trie constraint.
    constrained_keys: bool = True


def create_extractor(settings: ExtractionSettings) -> PropositionExtractor:
    if settings.kind is ExtractorKind.OFFLINE:
        return OfflineExtractor()
    from engram.extraction.llm import create_llm_extractor

    return create_llm_extractor(settings)
