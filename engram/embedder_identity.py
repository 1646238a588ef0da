"""Which embedder wrote a space's vectors, and when two embedders count as the same (docs/embedding.md, "Which
vectors may share a space").

A space records the embedder of its first write (backend, ONNX variant, model digest and family); recall, writes
and imports compare families, not backends: the fp32 ONNX graph gives torch's vectors to within float rounding
(cosine 1.0000 on 10,000 texts), so `torch` and `onnx` fp32 are one family, while int8 weights (cosine down to 0.95,
12% of neighbours moved) or another model are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engram.settings import EmbeddingSettings

MODEL_DIGEST_CHARS = 16


@dataclass(frozen=True)
class EmbedderIdentity:
    backend: str  # torch / onnx
    variant: str  # the ONNX variant (fp32 / int8); fp32 for torch
    model: str  # first MODEL_DIGEST_CHARS hex of the model folder's sha256
    dimensions: int = 384

    @property
    def precision(self) -> str:
        return "fp32" if self.backend == "torch" else self.variant

    @property
    def family(self) -> str:
        """What must match for vectors to share a space: the model and its weights' precision."""
        return f"{self.model}/{self.precision}"

    def describe(self) -> str:
        variant = "" if self.backend == "torch" else f" {self.variant}"
        return f"{self.backend}{variant} (model {self.model}, family {self.family})"

    def properties(self) -> dict[str, Any]:
        """As the Space node holds it (embedder_* properties) and an export's header names it."""
        return {"backend": self.backend, "variant": self.variant, "model": self.model, "family": self.family,
                "dimensions": self.dimensions}  # fmt: skip

    @classmethod
    def of(cls, row: dict[str, Any]) -> EmbedderIdentity:
        """From `properties()`; KeyError / ValueError name what is missing or wrong."""
        identity = cls(str(row["backend"]), str(row["variant"]), str(row["model"]), int(row.get("dimensions", 384)))
        if "family" in row and row["family"] != identity.family:
            raise ValueError(f"family {row['family']!r} does not match backend, variant and model ({identity.family})")
        return identity


def identity_of(settings: EmbeddingSettings) -> EmbedderIdentity:
    """The identity of the embedder these settings build (hashes the model folder once per process and path)."""
    variant = settings.onnx_variant if settings.backend == "onnx" else "fp32"
    return EmbedderIdentity(settings.backend, variant, _model_digest(settings.model_path))


@cache
def _model_digest(model_path: str) -> str:
    from engram.embedding_export import model_digest, model_dir

    return model_digest(model_dir(EmbeddingSettings(model_path=model_path)))[:MODEL_DIGEST_CHARS]
