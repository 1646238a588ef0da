"""The language-model duplicate judge under its Literal constraint, with a tiny random-weight model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.extraction.llm import load_transformers_model
from graph.consolidation.duplicates import DuplicateDecision, plan_duplicates
from graph.consolidation.lm_judge import LanguageModelJudge, judge_prompt
from graph.consolidation.model import PropositionView, unit_rows
from tests.support.tiny_lm import build_tiny_lm


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> LanguageModelJudge:
    directory = tmp_path_factory.mktemp("tiny-lm-judge")
    build_tiny_lm(str(directory))
    return LanguageModelJudge(load_transformers_model(str(directory)), do_sample=True, temperature=1.5)


def view(pid: str, text: str, day: int) -> PropositionView:
    return PropositionView(id=pid, text=text, valid_from=datetime(2023, 5, day, tzinfo=UTC), concept_ids=frozenset("c"))


def test_a_random_model_can_only_answer_a_decision(judge: LanguageModelJudge) -> None:
    a, b = view("a", "Ann has two cats.", 1), view("b", "Ann has three cats.", 9)
    answers = {judge.decide(a, b, 0.95) for _ in range(12)}
    assert answers <= set(DuplicateDecision) and answers
    assert judge.decide(a, b, 0.2) is DuplicateDecision.KEEP  # below the threshold the model is not asked


def test_prompt_puts_the_older_statement_first() -> None:
    prompt = judge_prompt(view("b", "Ann has three cats.", 9), view("a", "Ann has two cats.", 1))
    assert prompt.index("two cats") < prompt.index("three cats") and "2023-05-01" in prompt


def test_the_planner_accepts_the_language_model_judge(judge: LanguageModelJudge) -> None:
    views = [view("a", "Ann loves jazz.", 1), view("b", "Ann really loves jazz.", 2)]
    plans, judged = plan_duplicates(views, unit_rows([[1.0, 0.0], [1.0, 0.0]], dimensions=2), judge, 0.88)
    assert judged >= 1 and all(p.reason in ("merge", "updated") for p in plans) and len(plans) <= 1
