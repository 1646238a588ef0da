"""The onnx and torch backends give the same vectors; ENGRAM_EMBEDDING_BACKEND picks one and refuses what is not one;
the export (what infra/install.sh runs) writes stamped graphs once; idle cores are lent across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from engram.cpu_slots import CoreSlots, idle_cores
from engram.embedding import Embedder, OnnxModelMissing
from engram.embedding_export import STAMP, onnx_file
from engram.settings import PROJECT_ROOT, EmbeddingSettings

TEXTS = [
    "dance studio",
    "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
    "Melanie ran a charity race for mental health last Saturday (20 May 2023).",
    "",
    "naïve café — 東京 🙂",
    "user: I'm trying to plan a trip to Japan for cherry blossom season; which week in April is best for Kyoto? " * 12,
]


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    return Embedder(EmbeddingSettings(backend="torch")).encode(TEXTS)


@pytest.mark.parametrize(("variant", "floor"), [("fp32", 0.9999), ("int8", 0.95)])
def test_the_onnx_graphs_give_torchs_vectors(variant: str, floor: float, torch_vectors: np.ndarray) -> None:
    """fp32 is the same computation (the bench finds cosine 1.0 on 10,000 texts); int8 is near, not equal."""
    onnx = Embedder(EmbeddingSettings(backend="onnx", onnx_variant=variant), threads=1).encode(TEXTS)
    np.testing.assert_allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    assert np.sum(onnx * torch_vectors, axis=1).min() >= floor


def test_a_lone_large_pass_on_borrowed_cores_gives_the_same_vectors(tmp_path: Path) -> None:
    narrow = Embedder(EmbeddingSettings(backend="onnx", borrow_idle_cores=False), threads=1)
    wide = Embedder(EmbeddingSettings(backend="onnx", borrow_idle_cores=True), threads=1)
    texts = TEXTS * 20  # passes past WIDE_PASS_TOKENS
    np.testing.assert_allclose(wide.encode(texts), narrow.encode(texts), atol=1e-5)


@pytest.mark.parametrize("backend", ["onnx", "torch"])
def test_the_setting_selects_the_backend(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_EMBEDDING_BACKEND", backend)
    embedder = Embedder(EmbeddingSettings())
    assert embedder.backend_name == backend
    assert type(embedder._backend).__name__ == {"onnx": "_OnnxBackend", "torch": "_TorchBackend"}[backend]
    assert embedder.encode(["a query"]).shape == (1, 384)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("ENGRAM_EMBEDDING_BACKEND", "tensorflow", "backend"),
        ("ENGRAM_EMBEDDING_ONNX_VARIANT", "int4", "onnx_variant"),
    ],
)
def test_a_value_that_is_not_one_is_refused_with_the_choices(
    name: str, value: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=says) as refused:
        EmbeddingSettings()
    assert value in str(refused.value)


def test_onnx_on_a_gpu_is_refused_naming_the_torch_backend() -> None:
    with pytest.raises(ValidationError, match="ENGRAM_EMBEDDING_BACKEND=torch"):
        EmbeddingSettings(backend="onnx", device="cuda")
    assert EmbeddingSettings(backend="torch", device="cuda").device == "cuda"


def test_a_missing_export_is_refused_naming_the_command(tmp_path: Path) -> None:
    with pytest.raises(OnnxModelMissing, match=r"python -m engram\.embedding_export"):
        Embedder(EmbeddingSettings(backend="onnx", onnx_dir=str(tmp_path)))


def test_the_installers_export_writes_stamped_graphs_once(tmp_path: Path) -> None:
    """What infra/install.sh runs, into an empty folder: both graphs and a stamp; a second run keeps them."""
    env = {**os.environ, "ENGRAM_EMBEDDING_ONNX_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "engram.embedding_export"]
    first = subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert "exported in" in first.stdout and "Warning" not in first.stderr
    (folder,) = tmp_path.iterdir()
    graphs = [onnx_file(folder, variant) for variant in ("fp32", "int8")]
    written = [graph.stat().st_mtime_ns for graph in graphs]
    assert json.loads((folder / STAMP).read_text())["export_version"] >= 1
    again = subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "(current)" in again.stdout
    assert [graph.stat().st_mtime_ns for graph in graphs] == written
    vectors = Embedder(EmbeddingSettings(backend="onnx", onnx_dir=str(tmp_path)), threads=1).encode(TEXTS[:2])
    assert vectors.shape == (2, 384)


def test_cores_taken_by_one_pass_are_not_lent_to_another(tmp_path: Path) -> None:
    def quiet(cores: int) -> int:
        return cores

    slots = CoreSlots(2, tmp_path, quiet)
    with slots.take(2) as first:
        assert first == 2
        with CoreSlots(2, tmp_path, quiet).take(2) as second:
            assert second == 0  # every core taken: the other pass runs on its own share
    with slots.take(1) as one, CoreSlots(2, tmp_path, quiet).take(2) as rest:
        assert (one, rest) == (1, 1)
    with slots.take(2) as again:
        assert again == 2  # released at the end of each block


def test_cores_something_else_runs_on_are_not_borrowed(tmp_path: Path) -> None:
    with CoreSlots(2, tmp_path, lambda cores: 1).take(2) as busy:
        assert busy == 1
    assert 0 <= idle_cores(2) <= 2  # read from the kernel's count of runnable tasks
