"""Named recall recipes (graph/recall/config.py RECIPES): valid presets of user knobs, chosen by the environment or per
request, that never set a fitted coefficient and never override a knob given explicitly."""

from __future__ import annotations

from typing import get_args

import pytest
from pydantic import ValidationError

from app.mcp.server import Recipe
from graph.recall.config import FITTED_COEFFICIENTS, RECIPES, RecallConfig
from tests.unit.graph.recall.recall_support import chat_memory, new_engine, recall_config, request


def test_the_four_recipes_are_valid_presets_of_user_knobs_only() -> None:
    assert list(RECIPES) == ["default", "fast", "thorough", "associate"]
    assert list(get_args(Recipe)) == list(RECIPES)  # the MCP tool offers the same names
    defaults = recall_config()
    for name, sections in RECIPES.items():
        for section, knobs in sections.items():
            assert section in set(RecallConfig.model_fields) - {"recipe"}, (name, section)
            assert set(knobs) <= set(type(getattr(defaults, section)).model_fields), (name, section)
            assert not {(section, knob) for knob in knobs} & set(FITTED_COEFFICIENTS), (name, section)
        recall_config(**sections)  # validated as if given explicitly
    assert all(knob in type(getattr(defaults, section)).model_fields for section, knob in FITTED_COEFFICIENTS)


def test_a_recipe_sets_its_knobs_except_those_given_explicitly() -> None:
    fast = recall_config().with_recipe("fast")
    assert (fast.recipe, fast.request.hop_limit, fast.evidence.context_items, fast.order.diversity) == (
        "fast",
        1,
        0,
        0.0,
    )
    assert recall_config().with_recipe("default") == recall_config().with_recipe()  # default: nothing changed
    assert recall_config().with_recipe("default").model_dump() == {**recall_config().model_dump(), "recipe": "default"}
    mine = recall_config(seed_k=60, recipe="fast").with_recipe()
    assert (mine.recipe, mine.seed.seed_k, mine.request.hop_limit) == ("fast", 60, 1)
    with pytest.raises(ValueError, match="unknown recall recipe 'slow'"):
        recall_config().with_recipe("slow")
    with pytest.raises(ValidationError, match="unknown recall recipe"):
        recall_config(recipe="slow")


def test_the_environment_chooses_the_servers_recipe_and_its_knobs_still_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_RECIPE", "thorough")
    monkeypatch.setenv("ENGRAM_RECALL_SEED_K", "50")
    engine = new_engine(chat_memory(), RecallConfig(_env_file=None))  # type: ignore[call-arg]
    assert (engine.config.recipe, engine.config.seed.seed_k, engine.config.scoring.rerank_pool) == ("thorough", 50, 240)


def test_a_request_names_its_recipe_and_an_unknown_one_is_refused() -> None:
    engine = new_engine(chat_memory(), recall_config())
    question = "What does Rex eat?"
    default = engine.recall(request(question, limit=5))
    fast = engine.recall(request(question, limit=5, recipe="fast"))
    again = engine.recall(request(question, limit=5, recipe="default"))
    assert [i.id for i in again.items] == [i.id for i in default.items]
    ran = {step.step for step in fast.trace}
    assert fast.hops <= 1 and fast.items
    assert {s.step for s in default.trace} - ran  # fast skips steps the default runs
    with pytest.raises(ValidationError, match="unknown recipe 'quick'"):
        request(question, recipe="quick")
