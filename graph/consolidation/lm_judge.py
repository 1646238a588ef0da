"""A language-model duplicate judge: Outlines constrains the answer to one of the three decisions (a Literal
choice), so whatever the model, the answer is a valid decision. The offline rules (duplicates.OfflineJudge) stay
the default and are what the tests and the benchmark measure; pass this judge to `consolidate(judge=...)` with an
Outlines model (engram.extraction.llm.load_transformers_model or load_openai_model).
"""

from __future__ import annotations

from typing import Any, Literal

from graph.consolidation.duplicates import DuplicateDecision, DuplicateRules
from graph.consolidation.model import PropositionView, time_key

Choice = Literal["updated", "merge", "keep"]
PROMPT = """Two statements from one person's long-term memory. Decide:
- updated: the same fact, and the second gives a newer value of it (a changed number, place, state);
- merge: the same fact or the same point said in other words;
- keep: related but different facts (different events, days, people or details).

First ({first_date}): {first}
Second ({second_date}): {second}
Answer (updated, merge or keep):"""


def judge_prompt(a: PropositionView, b: PropositionView) -> str:
    first, second = sorted((a, b), key=lambda p: (time_key(p.valid_from), p.id))
    return PROMPT.format(
        first=first.text,
        second=second.text,
        first_date=first.valid_from.date().isoformat() if first.valid_from else "undated",
        second_date=second.valid_from.date().isoformat() if second.valid_from else "undated",
    )


class LanguageModelJudge:
    """Asks the model only about candidates above the similarity threshold (the rest are kept)."""

    def __init__(self, outlines_model: Any, rules: DuplicateRules | None = None, **generation_kwargs: Any) -> None:
        import outlines

        self.rules = rules or DuplicateRules()
        self._generator = outlines.Generator(outlines_model, Choice)
        # Room for the longest choice in any tokenizer; the constraint ends generation after a complete one.
        self._kwargs = {"max_new_tokens": 16, **generation_kwargs}

    def decide(self, a: PropositionView, b: PropositionView, cosine: float) -> DuplicateDecision:
        if cosine < self.rules.threshold:
            return DuplicateDecision.KEEP
        answer = str(self._generator(judge_prompt(a, b), **self._kwargs)).strip()
        return DuplicateDecision(answer)  # the constraint admits nothing else; anything else raises
