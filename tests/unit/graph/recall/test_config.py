"""`RecallConfig` (graph/recall/config.py): read from ENGRAM_RECALL_*, checked when built.

The conftest clears any ENGRAM_RECALL_* of the shell running the tests; `recall_config` keeps a .env file out."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from graph.recall.config import DEFAULT_LIST_WEIGHTS, KNOBS, RecallConfig
from tests.unit.graph.recall.recall_support import recall_config


def config(**knobs: Any) -> RecallConfig:
    return recall_config(**knobs)


def test_the_defaults() -> None:
    defaults = config()
    assert (defaults.request.limit, defaults.request.token_budget, defaults.request.hop_limit) == (25, 1024, 2)
    assert (
        defaults.seed.seed_k == 40 and defaults.scoring.value.recency == 0.03 and defaults.seed.search.max_fetch == 8192
    )
    assert defaults.seed.list_weights == DEFAULT_LIST_WEIGHTS and defaults.seed.list_weights is not DEFAULT_LIST_WEIGHTS
    assert defaults.seed.list_weight("fulltext") == 2.0 and defaults.seed.list_weight("dense") == 1.0  # unnamed: 1
    assert defaults.order.needs_vectors


def test_a_top_level_knob_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_SEED_K", "60")
    monkeypatch.setenv("ENGRAM_RECALL_DIVERSITY", "0")
    read = config()
    assert read.seed.seed_k == 60 and read.order.diversity == 0.0
    assert read.seed.rrf_k == 20  # the others keep their defaults


def test_a_nested_knob_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_VALUE__RECENCY", "0.05")
    monkeypatch.setenv("ENGRAM_RECALL_SEARCH__MAX_FETCH", "4096")
    read = config()
    assert read.scoring.value.recency == 0.05 and read.scoring.value.relevance == 0.50
    assert read.seed.search.max_fetch == 4096 and read.seed.search.exact_scan_max == 5000


def test_list_weights_from_the_environment_override_one_list_and_keep_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_LIST_WEIGHTS", '{"fulltext": 2.5, "context": 0}')
    weights = config().seed.list_weights
    assert weights["fulltext"] == 2.5 and weights["context"] == 0.0
    assert {k: v for k, v in weights.items() if k not in ("fulltext", "context")} == {
        "episode_fulltext": 2.0,
        "prescription_fulltext": 2.0,
        "prescription_dense": 0.5,
        "intent_dense": 0.5,
        "participant": 3.0,
        "content": 2.0,
        "page": 5.0,
        "named_page": 2.0,
        "when": 3.0,
    }


def test_list_weights_in_code_override_one_list_and_keep_the_others() -> None:
    built = config(list_weights={"page": 1.0, "hop:2": 0.5})
    assert built.seed.list_weights["page"] == 1.0 and built.seed.list_weights["hop:2"] == 0.5
    assert built.seed.list_weights["fulltext"] == 2.0 and len(built.seed.list_weights) == len(DEFAULT_LIST_WEIGHTS) + 1


def test_code_overrides_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_SEED_K", "60")
    assert config(seed_k=7).seed.seed_k == 7


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ENGRAM_RECALL_DIVERSITY", "1.0", r"diversity must be in \[0, 1\), got 1\.0"),
        ("ENGRAM_RECALL_DIVERSITY", "-0.1", r"diversity must be in \[0, 1\), got -0\.1"),
        ("ENGRAM_RECALL_VOTE_FULL", "0.1", r"vote_full \(0\.1\) must be above vote_floor \(0\.1\)"),
        ("ENGRAM_RECALL_VOTE_FULL", "0.05", r"vote_full \(0\.05\) must be above vote_floor \(0\.1\)"),
        ("ENGRAM_RECALL_SEED_K", "0", r"seed_k\n.*greater than or equal to 1"),
        ("ENGRAM_RECALL_LIMIT", "201", r"limit\n.*less than or equal to 200"),
        ("ENGRAM_RECALL_VALUE__RECENCY", "-1", r"value\.recency\n.*greater than or equal to 0"),
        ("ENGRAM_RECALL_VALUE__RECENSY", "0.1", r"value\.recensy\n.*Extra inputs are not permitted"),
        ("ENGRAM_RECALL_SEARCH__MAX_FETCH", "8", r"search\.max_fetch\n.*greater than or equal to 16"),
        ("ENGRAM_RECALL_LIST_WEIGHTS", '{"fulltext": "much"}', r"list_weights\.fulltext\n.*valid number"),
    ],
)
def test_a_bad_value_from_the_environment_is_refused_clearly(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=message):
        config()


def test_list_weights_that_are_not_json_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECALL_LIST_WEIGHTS", "fulltext=2.5")
    with pytest.raises(ValidationError, match=r"seed\.list_weights\n  Input should be a valid dictionary"):
        config()


def test_a_bad_value_in_code_is_refused_when_built() -> None:
    with pytest.raises(ValidationError, match=r"diversity must be in \[0, 1\), got 1\.0"):
        config(diversity=1.0)
    with pytest.raises(ValidationError, match=r"vote_full \(0\.2\) must be above vote_floor \(0\.3\)"):
        config(vote_floor=0.3, vote_full=0.2)
    assert config(vote_floor=0.3, vote_full=0.31).seed.vote_full == 0.31
    assert config(diversity=0.0).order.diversity == 0.0


def test_a_config_is_frozen_and_needs_vectors_only_for_a_reordering() -> None:
    built = config()
    with pytest.raises(ValidationError, match="frozen"):
        built.seed.seed_k = 3
    assert not config(diversity=0.0, restatement=0.0, latest=0.0).order.needs_vectors
    assert config(diversity=0.0, restatement=0.0, latest=0.5).order.needs_vectors


def test_a_negative_list_weight_is_refused() -> None:
    with pytest.raises(ValidationError, match="list weights must be at least 0: fulltext"):
        RecallConfig(list_weights={"fulltext": -3.0})


def test_every_knob_keeps_its_environment_name_and_sections_have_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = config()
    scalars = {name: defaults.knob(name) for name in KNOBS if isinstance(defaults.knob(name), int | float | str)}
    for name, value in scalars.items():
        monkeypatch.setenv(
            f"ENGRAM_RECALL_{name.upper()}", str(value).lower() if isinstance(value, bool) else str(value)
        )
    read = config()
    for name in scalars:
        section, field = KNOBS[name]
        assert field in getattr(read, section).model_fields_set, f"ENGRAM_RECALL_{name.upper()} was not read"
    monkeypatch.setenv("ENGRAM_RECALL_ORDER__DIVERSITY", "0.1")  # by section, too
    assert config().order.diversity == 0.1
