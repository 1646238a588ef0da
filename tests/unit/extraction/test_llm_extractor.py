"""The language-model extractor under its JSON constraint, with a tiny random-weight model built here."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from engram.extraction.base import EpisodeContext
from engram.extraction.llm import LLMExtractor, load_transformers_model, outlines_generate_fn
from engram.extraction.prompts.extract_propositions import WORST_CASE_TOKENS, ExtractionOutput
from tests.support.tiny_lm import build_tiny_lm

EPISODES = [
    EpisodeContext("e1", "I went hiking yesterday with my dog.", "Caroline", "Melanie"),
    EpisodeContext("e2", "Paris has many museums.", "", ""),
]


@pytest.fixture(scope="module")
def sampling_extractor(tmp_path_factory: pytest.TempPathFactory) -> LLMExtractor:
    directory = tmp_path_factory.mktemp("tiny-lm")
    build_tiny_lm(str(directory))
    model = load_transformers_model(str(directory))  # the real loading path, from local files
    return LLMExtractor(outlines_generate_fn(model, do_sample=True, temperature=1.5))


def test_every_sampled_output_validates(sampling_extractor: LLMExtractor) -> None:
    outputs = []
    for seed in range(12):
        torch.manual_seed(seed)
        outputs.append(sampling_extractor.extract_one(EPISODES[seed % 2]))
    assert all(isinstance(o, ExtractionOutput) for o in outputs)
    # Random weights wander: some samples must hold facts, so the schema's inner fields were exercised.
    assert any(o.propositions for o in outputs)


def test_drafts_carry_provenance_and_concepts(sampling_extractor: LLMExtractor) -> None:
    drafts = []
    for seed in range(12):
        torch.manual_seed(100 + seed)
        drafts.extend(sampling_extractor.extract(EPISODES[:1]))
    assert drafts, "twelve samples produced no fact at all"
    assert all(d.episode_ids == ["e1"] for d in drafts)
    assert all(len(d.concept_phrases) <= 3 for d in drafts)


def test_token_budget_never_below_the_schema_worst_case() -> None:
    extractor = LLMExtractor(lambda prompt, budget: '{"propositions":[]}', max_new_tokens=10)
    assert extractor._max_new_tokens == WORST_CASE_TOKENS


def test_an_invalid_model_answer_raises_instead_of_being_used() -> None:
    extractor = LLMExtractor(lambda prompt, budget: '{"propositions": [{"text": ""}]}')
    with pytest.raises(ValueError, match="validation error"):
        extractor.extract(EPISODES[:1])


def test_missing_local_model_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        load_transformers_model(str(tmp_path / "absent"))
