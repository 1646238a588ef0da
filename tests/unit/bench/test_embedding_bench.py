"""bench/embedding.py's interleaved timing: every configuration encodes every timed text once per round, chunk by
chunk, the configuration that goes first changing from chunk to chunk."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from bench.embedding import interleaved_rounds


class Recorder:
    def __init__(self, name: str, calls: list[tuple[str, tuple[str, ...]]]) -> None:
        self.name, self.calls = name, calls

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append((self.name, tuple(texts)))
        return np.zeros((len(texts), 384), np.float32)


def test_each_configuration_sees_every_text_once_per_round_and_the_first_turn_rotates() -> None:
    calls: list[tuple[str, tuple[str, ...]]] = []
    models: dict[tuple[str, int], Any] = {("a", 1): Recorder("a", calls), ("b", 2): Recorder("b", calls)}
    texts = [f"t{i}" for i in range(5)]
    runs = interleaved_rounds(cast(Any, models), texts, rounds=2, chunk=2)
    assert {key: len(seconds) for key, seconds in runs.items()} == {("a", 1): 2, ("b", 2): 2}
    assert all(s >= 0 for seconds in runs.values() for s in seconds)
    for name in ("a", "b"):
        seen = [t for who, part in calls if who == name for t in part]
        assert seen == texts * 2  # in order, each round whole
    # 3 chunks a round, 2 configurations each: the configuration first on a chunk alternates
    firsts = [calls[i][0] for i in range(0, len(calls), 2)]
    assert firsts == ["a", "b", "a", "b", "a", "b"]
    # both configurations run on the same chunk before the next chunk starts
    assert all(calls[i][1] == calls[i + 1][1] for i in range(0, len(calls), 2))
