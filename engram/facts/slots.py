"""Slots: which attribute of its subject a fact fills, named by the meaning of its frame (engram/facts/frames.py), not
by a list of predicates.

A small set of seed slots (`SEED_SLOTS`) names the common attributes, each by a few frames: a verb with its
preposition and the kind of value it takes ("live in :thing"), or an attribute noun ("home"). A fact fills a seed slot
when its frame has the seed's preposition and kind of value and a verb close in meaning to the seed's (sentence-
embedding cosine >= `SlotNamer.verb_cosine`: "be based in a place" and "settle in a place" fill `home`), or when its
attribute noun is close to the seed's (>= `noun_cosine`). The preposition and the kind decide as much as the verb:
"work on a laptop" is no employer, "be on a team" no home. Any other fact fills a slot named by its own frame, so the
same predicate with the same kind of value is the same attribute, and a kind no seed foresaw still has one. A change
that names the old value ("traded X for Y") gives the new value the old one's slot whatever its frame
(graph/consolidation/fact_changes.py). docs/supersession.md lists the seeds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from engram.facts.frames import KINDS

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]

SEED_SLOTS: dict[str, tuple[str, ...]] = {
    # Written as ingestion writes a predicate: the verb's lemma, a passive without its "be" ("is employed by X":
    # "employ by"), the preposition of the value.
    "home": ("live in :thing", "base in :thing", "reside in :thing", "move to :thing", "relocate to :thing",
             "settle in :thing", "home", "hometown"),
    "employer": ("work at :thing", "work for :thing", "employ by :thing",
                 "start at :thing", "employer"),
    "role": ("work as :thing", "job title", "role", "profession", "occupation"),
    "partner": ("date :thing", "marry :thing", "partner", "girlfriend", "boyfriend", "husband", "wife", "spouse"),
    "pet": ("pet", "adopt :thing"),
    "car": ("drive :thing", "car"),
    "phone": ("phone", "mobile"),
    "school": ("study at :thing", "enrol at :thing", "attend :thing", "school", "college",
               "university"),
    "diet": ("diet",),
}  # fmt: skip


@dataclass(frozen=True)
class Frame:
    """A frame's parts: its verb, its preposition and the kind of value, or its attribute noun alone."""

    verb: str
    preposition: str
    kind: str

    @classmethod
    def parse(cls, frame: str) -> Frame:
        """ "live in :thing" -> (live, in, place); "home" -> (home, "", "") (a noun)."""
        words = frame.split()
        kind = words.pop()[1:] if words and words[-1].startswith(":") else ""
        if not kind:
            return cls(" ".join(words), "", "")
        preposition = words.pop() if len(words) > 1 and words[-1] in _PREPOSITIONS else ""
        return cls(" ".join(words), preposition, kind)

    @property
    def is_noun(self) -> bool:
        return not self.kind


_PREPOSITIONS = frozenset(
    {"in", "at", "on", "for", "by", "with", "to", "from", "as", "of", "into", "about", "under", "over", "near"}
)


class SlotNamer:
    """Names the slots of frames, with the seed frames embedded once."""

    def __init__(self, embed: EmbedFn, verb_cosine: float = 0.75, noun_cosine: float = 0.8) -> None:
        self._embed = embed
        self.verb_cosine = verb_cosine
        self.noun_cosine = noun_cosine
        self._seeds = [(slot, Frame.parse(text)) for slot, texts in SEED_SLOTS.items() for text in texts]

    @cached_property
    def _seed_vectors(self) -> NDArray[np.float32]:
        """Embedded on first use (a recall engine that is never asked about a state never embeds them)."""
        return _unit(self._embed([frame.verb for _, frame in self._seeds]))

    def name(self, frames: Sequence[str]) -> list[str]:
        """The slot of each frame ("" for an empty frame): the seed slot it means, else its own frame."""
        wanted = sorted({f for f in frames if f})
        if not wanted:
            return ["" for _ in frames]
        parsed = [Frame.parse(f) for f in wanted]
        cosines = _unit(self._embed([p.verb for p in parsed])) @ self._seed_vectors.T
        named = {}
        for text, frame, row in zip(wanted, parsed, cosines, strict=True):
            named[text] = text
            best = -1.0
            for (slot, seed), cosine in zip(self._seeds, row.tolist(), strict=True):
                if seed.is_noun != frame.is_noun or cosine <= best:
                    continue
                if (frame.is_noun and cosine >= self.noun_cosine) or (
                    not frame.is_noun
                    and (seed.preposition, seed.kind) == (frame.preposition, frame.kind)
                    and cosine >= self.verb_cosine
                ):
                    named[text], best = slot, cosine
        return [named.get(f, "") for f in frames]


# Verbs too light to name an attribute alone: "Caroline is ready to help", "Gina has had tough times" say no value of
# one attribute. With a preposition they may ("be into :thing", "be on :thing"), and an attribute noun always does.
LIGHT_VERBS = frozenset({"be", "have", "do", "make", "feel", "seem", "become"})


def names_an_attribute(frame: str) -> bool:
    """Whether a fact's frame can name an attribute of its subject: an attribute noun, or a verb that is not a bare
    light verb."""
    parsed = Frame.parse(frame)
    return parsed.is_noun or bool(parsed.preposition) or parsed.verb not in LIGHT_VERBS


def _unit(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: NDArray[np.float32] = (matrix / norms).astype(np.float32)
    return out


__all__ = ["KINDS", "LIGHT_VERBS", "SEED_SLOTS", "Frame", "SlotNamer", "names_an_attribute"]
