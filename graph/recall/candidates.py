"""What recall gathers before it ranks (candidates, with the lists that found them) and what it ranks them into."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graph.recall.hits import Hit
from graph.recall.models import ItemKind, MemoryType, Provenance, RecallItem

# How much a hit of a named list counts in the fusion (graph/recall/run.py `RecallRun.vote`).
VoteFn = Callable[[str, Hit], float]


@dataclass
class Candidate:
    id: str
    kind: ItemKind
    ranks: dict[str, int] = field(default_factory=dict)
    activation: float = 0.0
    found_by: list[str] = field(default_factory=list)
    similarity: float | None = None  # the exact cosine to the query, when the step that found it computed it

    # How much each list's vote counts (graph/recall/value.py `match_strength`); 1 where not given.
    strengths: dict[str, float] = field(default_factory=dict)

    def add(self, source: str, rank: int, strength: float = 1.0) -> None:
        if source not in self.ranks or rank < self.ranks[source]:
            self.ranks[source] = rank
        self.strengths[source] = max(strength, self.strengths.get(source, 0.0))
        if source not in self.found_by:
            self.found_by.append(source)


@dataclass(slots=True)
class Ranked:
    """A scored candidate; it becomes a RecallItem only if it is returned (a recall ranks ~200 three times)."""

    id: str
    kind: ItemKind
    text: str
    score: float
    components: dict[str, float]
    provenance: list[Provenance]
    valid_from: datetime | None
    found_by: list[str]
    relevance: float | None = None  # calibrated (graph/recall/steps/relevance.py)
    superseded_by: str | None = None  # an earlier version: the current one it stands below (steps/earlier_versions.py)
    valid_to: datetime | None = None

    def item(self, tokens: int) -> RecallItem:
        return RecallItem(
            id=self.id,
            kind=self.kind,
            text=self.text,
            score=self.score,
            components={name: round(value, 4) for name, value in self.components.items()},
            provenance=self.provenance,
            tokens=tokens,
            valid_from=self.valid_from,
            found_by=self.found_by,
            relevance=None if self.relevance is None else round(self.relevance, 4),
            superseded_by=self.superseded_by,
            valid_to=self.valid_to,
        )


def candidate(candidates: dict[str, Candidate], item_id: str, kind: ItemKind) -> Candidate:
    """The candidate `item_id`, added on first sight."""
    return candidates.setdefault(item_id, Candidate(item_id, kind))


def merge_episode_hits(
    name: str, hits: list[Hit], types: list[MemoryType], candidates: dict[str, Candidate], vote: VoteFn
) -> None:
    """An episode found by a search stands for the current propositions it proves, at the episode's rank.

    Not for the prescriptions drawn from it: a prescription's own text holds every action of its steps, so what a
    step adds is its observation, what was around rather than what was done, and one step matching a task's object
    made every procedure that handled that object a candidate (docs/tuning.md)."""
    for rank, hit in enumerate(hits, start=1):
        strength = vote(name, hit)
        for prop_id in hit.proves:
            candidate(candidates, prop_id, ItemKind.PROPOSITION).add(name, rank, strength)
        if hit.ever_proved == 0 and MemoryType.EPISODIC in types:  # an utterance no fact was drawn from
            candidate(candidates, hit.id, ItemKind.EPISODE).add(name, rank, strength)


def kinds(items: Sequence[Ranked]) -> list[tuple[str, ItemKind]]:
    return [(item.id, item.kind) for item in items]
