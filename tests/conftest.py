"""Fixtures shared by all tests: the real services started by the test command (infra/test.sh), its own stack on the
test ports and state folder, which it points the settings at through the environment."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from engram.settings import EngramSettings, get_settings
from graph.driver import get_driver


@pytest.fixture(scope="session")
def settings() -> EngramSettings:
    return get_settings()


@pytest.fixture(scope="session")
def driver() -> neo4j.Driver:
    return get_driver()


@pytest.fixture()
def space(driver: neo4j.Driver) -> Iterator[str]:
    """A fresh memory space for one test; everything in it is removed afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


@pytest.fixture(scope="session")
def local_model(settings: EngramSettings) -> Any:
    """The real model of the local-model extra (Gemma 3 270M), loaded once per test session into the test state
    folder (converted on the first run: minutes); tests using it are skipped, saying why, without the extra."""
    from engram.local_model import KNOWN_MODELS, load

    for module in (KNOWN_MODELS["gemma3-270m"].module, "gguf", "accelerate"):
        pytest.importorskip(
            module, reason=f"the local-model extra is not installed ({module}): ENGRAM_EXTRAS=local-model"
        )
    return load("gemma3-270m", settings.state_dir)


@pytest.fixture(scope="session")
def local_gguf(settings: EngramSettings) -> Path:
    """The local-model extra's GGUF file for llama.cpp (assembled into the test state folder); tests using it are
    skipped, saying why, without the extra or without llama-cpp-python (compiled at install: docs/local-model.md)."""
    from engram.llamacpp_model import gguf_file
    from engram.local_model import KNOWN_MODELS

    for module in (KNOWN_MODELS["gemma3-270m"].module, "gguf"):
        pytest.importorskip(
            module, reason=f"the local-model extra is not installed ({module}): ENGRAM_EXTRAS=local-model"
        )
    pytest.importorskip(
        "llama_cpp", reason="llama-cpp-python is not installed (pip install llama-cpp-python compiles llama.cpp)"
    )
    return gguf_file("gemma3-270m", settings.state_dir)
