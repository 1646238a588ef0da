"""Builds the configured proposition extractor (offline rules by default)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engram.extraction.base import ExtractorKind, PropositionExtractor
from engram.extraction.offline import OfflineExtractor
from engram.extraction.settings import ExtractionSettings

if TYPE_CHECKING:
    from engram.extraction.llm import KeyNamer

__all__ = ["ExtractionSettings", "create_extractor"]


def create_extractor(
    settings: ExtractionSettings, key_namer_for: Callable[[object], KeyNamer] | None = None
) -> PropositionExtractor:
    """`key_namer_for(model)`: how a local model names concept keys (graph.concept_keys.tries.create_key_namer, over
    this process's graph); this floor knows no graph, so the caller hands it down. None: the model names none."""
    if settings.kind is ExtractorKind.OFFLINE:
        return OfflineExtractor()
    from engram.extraction.llm import create_llm_extractor

    return create_llm_extractor(settings, key_namer_for)
