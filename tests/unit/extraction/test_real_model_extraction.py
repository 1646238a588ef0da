"""The transformers extractor on real weights (Gemma 3 270M, the local-model extra): its loose schema compiles for a
262k-token vocabulary within the budget, and every episode gives a valid extraction or a clear ExtractionError."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import outlines
import pytest

from engram.extraction.base import EpisodeContext, ExtractionError
from engram.extraction.llm import LLMExtractor, outlines_generate_fn
from engram.extraction.prompts.extract_propositions import TEXT_CHARS

# A real model on two shared CPU cores: minutes per episode under load (pytest's default limit: 10 min).
pytestmark = [pytest.mark.local_model, pytest.mark.timeout(1800)]
DAY = datetime(2023, 5, 8, tzinfo=UTC)
EPISODES = [
    EpisodeContext(
        "e1", "I went to the LGBTQ support group yesterday and it was so powerful.", "Caroline", "Melanie", DAY
    ),
    EpisodeContext("e2", "I painted a lake sunrise last year! It's special to me.", "Melanie", "Caroline", DAY),
]


def test_the_loose_schema_compiles_in_budget_and_every_episode_is_valid_or_a_clear_error(local_model: Any) -> None:
    model = outlines.from_transformers(local_model.model, local_model.tokenizer)
    started = time.perf_counter()
    generate = outlines_generate_fn(model, compile_budget_s=300)
    assert time.perf_counter() - started < 300
    extractor = LLMExtractor(generate, attempts=2)
    extractor._max_new_tokens = 120  # a test's budget: a base model that repeats itself is cut off sooner
    outcomes = []
    for episode in EPISODES:
        try:
            drafts = extractor.extract([episode])
        except ExtractionError as error:
            assert "not a valid extraction" in str(error)
            outcomes.append(error)
            continue
        assert all(d.episode_ids == [episode.episode_id] and 0 < len(d.text) <= TEXT_CHARS for d in drafts)
        assert all(len(d.concept_phrases) <= 3 for d in drafts)
        outcomes.append(drafts)
    assert len(outcomes) == len(EPISODES)
