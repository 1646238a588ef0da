"""Finding a local model by name: settings, and the clear errors of a wrong name, a missing directory, an absent
extra and a damaged file (nothing is loaded here: the real model's tests are in test_real_model.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from pydantic import ValidationError

from engram.extraction.base import ExtractorKind
from engram.extraction.factory import ExtractionSettings
from engram.local_model import KNOWN_MODELS, LocalModelError, load, model_files
from engram.settings import EngramSettings

EXTRA = importlib.util.find_spec(KNOWN_MODELS["gemma3-270m"].module) is not None


def test_an_unknown_model_name_is_refused_naming_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"unknown ENGRAM_LOCAL_MODEL 'gemma9-1t'.*gemma3-270m"):
        load("gemma9-1t", tmp_path)
    assert not any(tmp_path.iterdir())  # nothing written


def test_a_missing_model_directory_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"absent.*does not exist"):
        model_files(str(tmp_path / "absent"), tmp_path)


def test_a_directory_that_holds_no_model_fails_clearly(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(LocalModelError, match="could not load model"):
        load(str(tmp_path / "empty"), tmp_path)


@pytest.mark.skipif(EXTRA, reason="the local-model extra is installed")
def test_without_the_extra_the_error_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"engram\[local-model\]"):
        load("gemma3-270m", tmp_path)
    assert not any(tmp_path.rglob("*.gguf"))


@pytest.mark.local_model
@pytest.mark.skipif(not EXTRA, reason="the local-model extra is not installed (ENGRAM_EXTRAS=local-model make test)")
def test_a_damaged_model_file_is_reported_not_used(tmp_path: Path) -> None:
    package = importlib.import_module(KNOWN_MODELS["gemma3-270m"].module)
    damaged = tmp_path / "models" / "gemma3-270m" / package.MODEL_NAME
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(LocalModelError, match=r"corrupt.*delete it"):
        load("gemma3-270m", tmp_path)
    assert damaged.read_bytes() == b"GGUF" + b"\0" * 64  # reported, not overwritten


@pytest.mark.local_model
@pytest.mark.skipif(not EXTRA, reason="the local-model extra is not installed (ENGRAM_EXTRAS=local-model make test)")
def test_a_damaged_converted_copy_is_reported_with_how_to_rebuild_it(tmp_path: Path) -> None:
    converted = tmp_path / "models" / "gemma3-270m" / "transformers"
    converted.mkdir(parents=True)
    (converted / "config.json").write_text('{"model_type": "gemma3_text"}')
    (converted / "model.safetensors").write_bytes(b"\x10" * 100)  # a header length past the file's end
    with pytest.raises(LocalModelError, match=r"could not load model gemma3-270m.*delete .*transformers to convert"):
        load("gemma3-270m", tmp_path)


def test_the_local_model_names_keys_and_is_the_transformers_extractors_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert EngramSettings().keys.model == ""
    monkeypatch.setenv("ENGRAM_LOCAL_MODEL", "gemma3-270m")
    assert EngramSettings().keys.model == "gemma3-270m"
    assert ExtractionSettings().kind is ExtractorKind.OFFLINE and not ExtractionSettings().uses_model
    monkeypatch.setenv("ENGRAM_EXTRACTOR_KIND", "transformers")
    assert ExtractionSettings().model == "gemma3-270m" and ExtractionSettings().uses_model
    monkeypatch.setenv("ENGRAM_KEYS_MODEL", "/models/other")
    assert EngramSettings().keys.model == "/models/other"  # an explicit setting wins


def test_a_transformers_extractor_without_a_model_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGRAM_LOCAL_MODEL", raising=False)
    monkeypatch.setenv("ENGRAM_EXTRACTOR_KIND", "transformers")
    with pytest.raises(ValidationError, match=r"needs ENGRAM_EXTRACTOR_MODEL \(or ENGRAM_LOCAL_MODEL\)"):
        ExtractionSettings()
