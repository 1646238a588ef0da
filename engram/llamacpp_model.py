"""llama.cpp as the runtime that names recall's keys (`ENGRAM_KEYS_BACKEND=llamacpp`): the GGUF file as it is.

Needs `llama-cpp-python` (the `llamacpp` extra): PyPI has its source only, and installing it compiles llama.cpp
(docs/local-model.md gives the time). It reads the quantised file directly (no conversion, ~0.4 GB resident against
transformers' 3 GB fp32 copy) and loads in about a second.

- `OMP_WAIT_POLICY=PASSIVE`: llama.cpp's OpenMP threads otherwise spin between tokens, and on a loaded machine
  generation fell to 1 token/s. The OpenMP runtime reads it once, when llama.cpp's library is loaded, so it is set
  (unless the environment says otherwise) before the first import.
- The key trie needs transformers' tokenizer (`KeyTokenizer`). The GGUF file's own is built once (~40 s) and saved in
  the state folder; llama.cpp is given that tokenizer too (`LlamaHFTokenizer`), so prompt and keys are tokenised alike.
- Outlines' own constraints on llama.cpp (JSON schema, regex) run its numpy kernels, which need `numba`; without it
  the import fails inside llama.cpp's sampling callback and the model writes unconstrained text, silently.
  `require_numba` turns that into a clear error; the key trie's processor is plain numpy and does not need it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram.local_model import CONVERTED_DIR, KNOWN_MODELS, LocalModelError, assemble, known_model

INSTALL = "pip install llama-cpp-python (compiles llama.cpp: docs/local-model.md)"


@dataclass
class LoadedLlamaCpp:
    model: Any  # Outlines' LlamaCpp model (its `.model` is the llama_cpp.Llama)
    gguf: Path
    load_s: float

    @property
    def description(self) -> str:
        return f"llama.cpp backend, {self.gguf}, loaded in {self.load_s:.1f} s"


def require_numba() -> None:
    """Outlines' JSON-schema or regex constraints on llama.cpp fail silently without numba: say so instead."""
    if importlib.util.find_spec("numba") is None:
        raise LocalModelError(
            "Outlines' constraints on llama.cpp need numba (pip install numba): without it they fail inside "
            "llama.cpp's callback and the model writes unconstrained text"
        )


def gguf_file(spec: str, state_dir: Path) -> Path:
    """A known model's GGUF file (assembled into the state folder the first time) or a path to a .gguf file."""
    if spec in KNOWN_MODELS:
        return assemble(KNOWN_MODELS[spec], state_dir)
    path = Path(spec).expanduser()
    if os.sep not in spec and not path.exists():
        known_model(spec)  # a bare name that is not a model we know: say so
    if path.suffix != ".gguf" or not path.is_file():
        raise LocalModelError(f"the llama.cpp backend needs a .gguf file: {path} is none (ENGRAM_KEYS_MODEL)")
    return path


def tokenizer_for(gguf: Path, state_dir: Path) -> Any:
    """transformers' tokenizer of a GGUF file: a converted model's if there is one, else built once and saved."""
    from transformers import AutoTokenizer

    converted = gguf.parent / CONVERTED_DIR
    saved = converted if (converted / "tokenizer.json").exists() else state_dir / "models" / "tokenizers" / gguf.stem
    if saved.is_dir():
        return AutoTokenizer.from_pretrained(saved, local_files_only=True)
    partial = saved.parent / f".{saved.name}.{os.getpid()}.partial"
    try:
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name, local_files_only=True)
        tokenizer.save_pretrained(partial)
        partial.rename(saved)
    except (ImportError, OSError, ValueError) as error:  # transformers' GGUF reader needs `gguf`
        raise LocalModelError(f"could not build the tokenizer of {gguf}: {error}") from error
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return tokenizer


def _llama_tokenizer(tokenizer: Any) -> Any:
    """llama-cpp-python's wrapper of a transformers tokenizer, minus a double BOS: the wrapper adds the special tokens
    whenever asked for special-token parsing, ignoring `add_bos=False`, and a completion adds its own BOS first."""
    from llama_cpp.llama_tokenizer import LlamaHFTokenizer

    class SingleBos(LlamaHFTokenizer):  # type: ignore[misc,unused-ignore]
        def tokenize(self, text: bytes, add_bos: bool = True, special: bool = True) -> list[int]:
            ids = list(super().tokenize(text, add_bos, special))
            return ids[1:] if not add_bos and ids[:1] == [self.hf_tokenizer.bos_token_id] else ids

    return SingleBos(tokenizer)


def load_llamacpp(spec: str, state_dir: Path, context_tokens: int = 2048) -> LoadedLlamaCpp:
    """An Outlines llama.cpp model of `spec` (plain prompts: base models have no chat template); errors are
    `LocalModelError`, naming the file or the missing package and what to do."""
    started = time.perf_counter()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # read once, when llama.cpp's library loads (see above)
    try:
        import outlines
        from llama_cpp import Llama
    except ImportError as error:
        raise LocalModelError(f"ENGRAM_KEYS_BACKEND=llamacpp needs llama-cpp-python: {INSTALL} ({error})") from error
    gguf = gguf_file(spec, state_dir)
    tokenizer = tokenizer_for(gguf, state_dir)
    try:
        llama = Llama(str(gguf), n_ctx=context_tokens, verbose=False, tokenizer=_llama_tokenizer(tokenizer))
    except (OSError, ValueError, RuntimeError) as error:  # llama.cpp refuses a damaged file with a ValueError
        raise LocalModelError(f"llama.cpp could not load {gguf}: {error}") from error
    return LoadedLlamaCpp(outlines.from_llamacpp(llama, chat_mode=False), gguf, time.perf_counter() - started)
