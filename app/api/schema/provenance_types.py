"""The episodes that prove an answer: shared by recall's items and aggregate's counted items (one module below both,
so neither imports the other for it)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graph.recall.models import Provenance


@strawberry.type(description="An episode that proves a recalled item.")
class ProvenanceEpisode:
    episode_id: strawberry.ID
    external_id: str
    source_id: strawberry.ID
    speaker: str
    text: str
    occurred_at: datetime | None

    @staticmethod
    def of(p: Provenance) -> ProvenanceEpisode:
        return ProvenanceEpisode(
            episode_id=strawberry.ID(p.episode_id),
            external_id=p.external_id,
            source_id=strawberry.ID(p.source_id),
            speaker=p.speaker,
            text=p.text,
            occurred_at=p.occurred_at,
        )
