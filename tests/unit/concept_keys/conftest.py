"""A tiny random-weight model and its tokenizer, built once for the key tests (no downloads)."""

from __future__ import annotations

from typing import Any

import outlines
import pytest

from engram.concept_keys.decoder import KeyDecoder
from engram.concept_keys.tokenization import KeyTokenizer
from tests.support.tiny_lm import build_tiny_lm


@pytest.fixture(scope="session")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return build_tiny_lm(str(tmp_path_factory.mktemp("tiny-lm-keys")))


@pytest.fixture(scope="session")
def key_tokenizer(tiny_lm: tuple[Any, Any]) -> KeyTokenizer:
    return KeyTokenizer(tiny_lm[1])


@pytest.fixture(scope="session")
def decoder(tiny_lm: tuple[Any, Any]) -> KeyDecoder:
    return KeyDecoder(outlines.from_transformers(*tiny_lm))


@pytest.fixture(scope="session")
def sampling_decoder(tiny_lm: tuple[Any, Any]) -> KeyDecoder:
    return KeyDecoder(outlines.from_transformers(*tiny_lm), do_sample=True, temperature=2.0)
