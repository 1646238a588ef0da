"""The llama.cpp backend's clear errors, which need neither llama-cpp-python nor the model: a wrong file, an unknown
name, numba missing for Outlines' constraints, and the doctor's check naming what to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.doctor import model_checks
from engram.llamacpp_model import gguf_file, require_numba
from engram.local_model import LocalModelError
from engram.settings import EngramSettings


def test_an_unknown_name_or_a_file_that_is_no_gguf_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="unknown ENGRAM_LOCAL_MODEL 'gemma9-1t'"):
        gguf_file("gemma9-1t", tmp_path)
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"\0")
    with pytest.raises(LocalModelError, match=r"needs a \.gguf file"):
        gguf_file(str(weights), tmp_path)
    with pytest.raises(LocalModelError, match=r"needs a \.gguf file"):
        gguf_file(str(tmp_path / "absent.gguf"), tmp_path)


def test_a_gguf_path_is_taken_as_it_is(tmp_path: Path) -> None:
    model = tmp_path / "any.gguf"
    model.write_bytes(b"GGUF")
    assert gguf_file(str(model), tmp_path) == model


def test_numba_missing_is_said_instead_of_constraints_failing_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a))
    with pytest.raises(LocalModelError, match="need numba"):
        require_numba()


def test_the_doctor_checks_the_llamacpp_key_model_and_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGRAM_LOCAL_MODEL", raising=False)
    monkeypatch.delenv("ENGRAM_EXTRACTOR_KIND", raising=False)
    monkeypatch.setenv("ENGRAM_KEYS_MODEL", "gemma9-1t")
    monkeypatch.setenv("ENGRAM_KEYS_BACKEND", "llamacpp")
    [check] = model_checks(EngramSettings())
    result = check()
    assert not result.ok and "(llama.cpp)" in result.name
    assert "gemma9-1t" in result.detail or "llama-cpp-python" in result.detail
    assert "llama-cpp-python" in result.fix
