"""Slots: which attribute of its subject a fact fills, named by the meaning of its frame (engram/facts/frames.py), not
by a list of predicates.

A small set of seed slots, each with a few frames (`SEED_SLOTS`), names the common attributes: a fact whose frame is
close in meaning to a seed frame (sentence-embedding cosine >= `SlotNamer.seed_cosine`) fills that slot, whatever its
verb ("be based in a place" and "have an apartment in a place" fill `home`). Any other fact fills a slot named by its
own frame, so the same predicate with the same kind of value is the same attribute ("play for a company"), and a kind
no seed foresaw still has one. Changes that name the old value ("traded X for Y") give the new value the old one's
slot whatever its frame (graph/consolidation/fact_changes.py). docs/supersession.md lists the seeds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]

SEED_SLOTS: dict[str, tuple[str, ...]] = {
    "home": ("live in a place", "be based in a place", "have an apartment in a place", "move to a place",
             "relocate to a place", "settle in a place", "home"),
    "employer": ("work at a company", "work for a company", "be employed by a company", "join a company",
                 "start at a company", "employer"),
    "role": ("work as a job", "job title", "role", "be promoted to a job", "profession"),
    "partner": ("date someone", "be in a relationship with someone", "partner", "girlfriend", "boyfriend",
                "husband", "wife"),
    "pet": ("pet", "have a dog", "adopt a cat", "own a pet"),
    "car": ("drive a car", "car", "buy a car"),
    "phone": ("phone", "use a phone"),
    "school": ("study at a school", "be enrolled at a university", "school", "college"),
    "diet": ("diet", "be vegetarian"),
}  # fmt: skip


class SlotNamer:
    """Names the slots of frames, with the seed frames embedded once."""

    def __init__(self, embed: EmbedFn, seed_cosine: float = 0.7) -> None:
        self._embed = embed
        self.seed_cosine = seed_cosine
        self._seeds = [(slot, frame) for slot, frames in SEED_SLOTS.items() for frame in frames]
        self._seed_vectors = _unit(embed([frame for _, frame in self._seeds]))

    def name(self, frames: Sequence[str]) -> list[str]:
        """The slot of each frame ("" for an empty frame): the seed slot it means, else its own frame."""
        wanted = sorted({f for f in frames if f})
        if not wanted:
            return ["" for _ in frames]
        cosines = _unit(self._embed(wanted)) @ self._seed_vectors.T
        named = {}
        for frame, row in zip(wanted, cosines, strict=True):
            best = int(np.argmax(row))
            named[frame] = self._seeds[best][0] if float(row[best]) >= self.seed_cosine else frame
        return [named.get(f, "") for f in frames]


def _unit(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: NDArray[np.float32] = (matrix / norms).astype(np.float32)
    return out
