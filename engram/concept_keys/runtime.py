"""The model that names recall's keys, on the runtime `ENGRAM_KEYS_BACKEND` picks: transformers (engram/local_model.py,
a converted fp32 copy) or llama.cpp (engram/llamacpp_model.py, the GGUF file). Errors are `LocalModelError`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engram.settings import KeySettings


def load_key_model(settings: KeySettings, state_dir: Path) -> tuple[Any, str]:
    """An Outlines model for `KeyDecoder`, and what it is (backend, file, load time) for logs and the doctor."""
    if settings.backend == "llamacpp":
        from engram.llamacpp_model import load_llamacpp

        loaded = load_llamacpp(settings.model, state_dir)
        return loaded.model, loaded.description
    import outlines

    from engram.local_model import load

    model = load(settings.model, state_dir)
    return outlines.from_transformers(model.model, model.tokenizer), model.description
