"""Decides whether another hop is worth it (offline rule; a model-based judge could replace it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HopDecision:
    another: bool
    reason: str


class HopController:
    def __init__(self, confident_similarity: float = 0.5) -> None:
        self._confident = confident_similarity

    def decide(self, hop: int, hop_limit: int, new_concepts: int, top_similarity: float) -> HopDecision:
        if hop >= hop_limit:
            return HopDecision(False, f"hop limit {hop_limit} reached")
        if new_concepts == 0:
            return HopDecision(False, "the top items mention no concept not yet activated")
        if top_similarity >= self._confident:
            return HopDecision(False, f"top item already matches closely (cosine {top_similarity:.2f})")
        return HopDecision(True, f"{new_concepts} new concepts in the top items, best cosine {top_similarity:.2f}")
