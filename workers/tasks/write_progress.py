"""How far a write stage got, saved after every part so that a next slice or a redelivered stage goes on from there."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.memory_writer import Written
from workers.jobs import JobStore, UnknownJob


@dataclass
class WriteProgress:
    """How far a sliced write stage has come: parts written, what they wrote, the knowledge its current chunk has
    unlinked so far, and the seconds its earlier slices worked."""

    parts_done: int = 0
    written: Written = field(default_factory=lambda: Written(set(), set(), set()))
    unlinked: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @classmethod
    def load(cls, store: JobStore, job_id: str) -> WriteProgress:
        try:
            saved = store.get_artifact(job_id, "write:progress")[0]
        except UnknownJob:
            return cls()
        written = Written(
            set(saved["concept_ids"]),
            set(saved["retired_concept_ids"]),
            set(saved["retired_intents"]),
            set(saved.get("withheld_episodes", [])),
        )
        return cls(saved["parts_done"], written, list(saved["unlinked"]), float(saved["seconds"]))

    def save(self, store: JobStore, job_id: str, slice_seconds: float) -> None:
        """Saves the progress, with `slice_seconds` more worked (the time of a slice that ends here)."""
        self.seconds += slice_seconds
        saved = {
            "parts_done": self.parts_done,
            "concept_ids": sorted(self.written.concept_ids),
            "retired_concept_ids": sorted(self.written.retired_concept_ids),
            "retired_intents": sorted(self.written.retired_intents),
            "withheld_episodes": sorted(self.written.withheld_episodes),
            "unlinked": self.unlinked,
            "seconds": self.seconds,
        }
        store.put_artifact(job_id, "write:progress", saved, {})
