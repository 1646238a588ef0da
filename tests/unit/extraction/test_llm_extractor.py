"""The language-model extractor under its (loose) JSON constraint, with a tiny random-weight model built here:
whatever the model writes, an episode gives a valid extraction or a clear ExtractionError, never half of one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import torch

from engram.extraction.base import EpisodeContext, ExtractionError
from engram.extraction.llm import (
    LLMExtractor,
    compile_within,
    load_transformers_model,
    loose_schema,
    outlines_generate_fn,
)
from engram.extraction.prompts.extract_propositions import TEXT_CHARS, WORST_CASE_TOKENS, ExtractionOutput
from engram.local_model import LocalModelError
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
    # The bounded constraint (a 64-token vocabulary compiles it at once): random weights under the loose one write
    # strings past the bounds until the token budget, and every answer would be refused after minutes.
    return LLMExtractor(outlines_generate_fn(model, bounded=True, do_sample=True, temperature=1.5))


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
    extractor = LLMExtractor(lambda prompt, budget, attempt: '{"propositions":[]}', max_new_tokens=10)
    assert extractor._max_new_tokens == WORST_CASE_TOKENS


def test_an_invalid_answer_is_generated_again_then_fails_the_episode_clearly() -> None:
    attempts: list[int] = []

    def invalid(prompt: str, budget: int, attempt: int) -> str:
        attempts.append(attempt)
        return '{"propositions": [{"text": ""'  # cut off at the token budget

    with pytest.raises(ExtractionError, match="not a valid extraction"):
        LLMExtractor(invalid, attempts=3).extract(EPISODES[:1])
    assert attempts == [0, 1, 2]


def test_a_retry_that_answers_validly_is_used() -> None:
    answers = iter(
        [
            '{"propositions": [{"text": ""}]}',
            '{"propositions": [{"text": "Caroline hiked.", "subject": "Caroline", "concepts": ["hiking"]}]}',
        ]
    )
    drafts = LLMExtractor(lambda prompt, budget, attempt: next(answers)).extract(EPISODES[:1])
    assert [d.text for d in drafts] == ["Caroline hiked."]


def test_the_constraint_is_loose_and_the_bounds_are_checked_after() -> None:
    schema = ExtractionOutput.model_json_schema()
    loose = str(loose_schema(schema))
    assert "maxLength" in str(schema) and "maxItems" in str(schema)
    assert "maxLength" not in loose and "maxItems" not in loose and "minLength" in loose
    too_long = '{"propositions": [{"text": "%s", "subject": "", "concepts": []}]}' % ("x" * (TEXT_CHARS + 1))
    with pytest.raises(ExtractionError, match=r"propositions\.0\.text"):
        LLMExtractor(lambda prompt, budget, attempt: too_long, attempts=1).extract(EPISODES[:1])


def test_a_compilation_past_its_budget_is_a_clear_error() -> None:
    started = time.perf_counter()
    with pytest.raises(ExtractionError, match=r"did not compile within 0.2 s.*COMPILE_BUDGET_S"):
        compile_within(lambda: time.sleep(3), 0.2, "the extraction schema")
    assert time.perf_counter() - started < 2


def test_missing_local_model_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="does not exist"):
        load_transformers_model(str(tmp_path / "absent"))
