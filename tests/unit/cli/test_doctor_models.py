"""`engram doctor`'s language-model checks: none by default, a failing check that says why for a wrong setting."""

from __future__ import annotations

import pytest

from app.cli.doctor import model_checks
from engram.settings import EngramSettings


def test_no_model_configured_adds_no_check(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ENGRAM_LOCAL_MODEL", "ENGRAM_KEYS_MODEL", "ENGRAM_EXTRACTOR_KIND"):
        monkeypatch.delenv(name, raising=False)
    assert model_checks(EngramSettings()) == []


def test_an_unknown_local_model_fails_its_check_naming_the_known_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_LOCAL_MODEL", "gemma9-1t")
    [check] = model_checks(EngramSettings())
    result = check()
    assert (
        not result.ok and "unknown ENGRAM_LOCAL_MODEL 'gemma9-1t'" in result.detail and "gemma3-270m" in result.detail
    )
    assert "local-model" in result.fix


def test_a_transformers_extractor_without_a_model_fails_the_settings_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGRAM_LOCAL_MODEL", raising=False)
    monkeypatch.setenv("ENGRAM_EXTRACTOR_KIND", "transformers")
    [check] = model_checks(EngramSettings())
    assert not check().ok and "ENGRAM_EXTRACTOR_MODEL" in check().detail


def test_an_extraction_server_that_is_down_fails_its_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGRAM_LOCAL_MODEL", raising=False)
    monkeypatch.setenv("ENGRAM_EXTRACTOR_KIND", "openai")
    monkeypatch.setenv("ENGRAM_EXTRACTOR_BASE_URL", "http://127.0.0.1:9/v1")
    [check] = model_checks(EngramSettings())
    result = check()
    assert not result.ok and "unreachable" in result.detail
