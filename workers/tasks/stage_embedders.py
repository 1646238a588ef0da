"""The ingest stages' embedders: one that reports its progress on the job, and one that stops at the end of its time
slice (ENGRAM_WORKER_STAGE_SLICE_S) so that a large document's embedding gives the worker slot back between parts."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engram.embedding import get_embedder
from workers.jobs import JobStore, UnknownJob


def embedder_with_progress(store: JobStore, job_id: str) -> Any:
    embedder = get_embedder()

    def embed(texts: Sequence[str]) -> NDArray[np.float32]:
        store.progress(job_id, 0, len(texts))
        return embedder.encode(texts, progress=lambda done: store.progress(job_id, done))

    return embed


# What a stage returns when its time slice (ENGRAM_WORKER_STAGE_SLICE_S) is spent: its progress is saved and it
# waits for its next slot at the front of its space's list, the slot going to whoever the scheduler picks.
SLICE_OVER = "slice over"


# Texts embedded at a time by a sliced embed stage: each part is saved as it is done (~1-2 s of work on a CPU).
EMBED_PART_TEXTS = 64


class SliceOver(Exception):
    pass


def sliced_embedder(store: JobStore, job_id: str, slice_s: float) -> Any:
    """The embed stage's encoder, in parts of EMBED_PART_TEXTS saved as they are done: a run reuses the parts of
    earlier runs and stops (SliceOver) once it has worked `slice_s` seconds, so that a large job's embedding holds
    a worker slot for a few seconds at a time, not for as long as its whole document takes."""
    encode = embedder_with_progress(store, job_id)
    started = time.monotonic()

    def embed(texts: Sequence[str]) -> NDArray[np.float32]:
        if not texts:
            return encode(texts)  # type: ignore[no-any-return]
        parts: list[NDArray[np.float32]] = []
        worked = False
        for index, first in enumerate(range(0, len(texts), EMBED_PART_TEXTS)):
            try:
                parts.append(store.get_artifact(job_id, f"embed:part{index}")[1]["vectors"])
                continue
            except UnknownJob:
                pass
            if worked and time.monotonic() - started > slice_s:
                raise SliceOver
            vectors = encode(texts[first : first + EMBED_PART_TEXTS])
            store.put_artifact(job_id, f"embed:part{index}", {}, {"vectors": vectors})
            parts.append(vectors)
            worked = True
        return np.concatenate(parts)

    return embed
