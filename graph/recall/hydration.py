"""Hydration of ranked items, shared by the steps that add items after the ranking: rows into the searcher's cache
with times and provenance parsed, and the episodes behind ranked knowledge (episodic mode)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graph.recall.candidates import Ranked, kinds
from graph.recall.models import ItemKind, Provenance
from graph.recall.run import RecallRun
from graph.recall.searcher import TextLabel


def hydrate_into(run: RecallRun, label: TextLabel, wanted: list[tuple[str, float | None]]) -> None:
    """Hydrates (id, similarity if known) pairs into the searcher's row cache, times and provenance parsed."""
    for row in run.searcher.hydrate(label, wanted, run.vector):
        row["valid_from"] = item_time(row["valid_from"])
        row["provenance"] = [provenance_of(p) for p in row["provenance"]]
        run.searcher.hydrated[row["id"]] = row


def item_time(value: Any) -> datetime | None:
    """A time from a hydrate query: Neo4j's ISO text (`toString`, maybe with a zone name in brackets)."""
    if value is None:
        return None
    if isinstance(value, str):
        return datetime.fromisoformat(value.split("[", 1)[0])
    return value.to_native() if hasattr(value, "to_native") else value  # type: ignore[no-any-return]


def provenance_of(row: dict[str, Any]) -> Provenance:
    return Provenance(
        episode_id=row["id"],
        external_id=row.get("external_id") or "",
        source_id=row.get("source_id") or "",
        speaker=row.get("speaker") or "",
        text=row.get("text") or "",
        occurred_at=item_time(row.get("occurred_at")),
    )


def as_episodes(items: list[Ranked]) -> list[Ranked]:
    """Episodic mode: the episodes behind the ranked knowledge, each at the rank of the best item it proves.

    Best first, not grouped by source (the result's `sources` groups them): in source order a token budget would be
    spent on a first source's weaker episodes before a second source's best one."""
    seen: dict[str, Ranked] = {}
    for item in items:
        for proof in item.provenance:
            if proof.episode_id in seen:
                continue
            seen[proof.episode_id] = Ranked(
                id=proof.episode_id,
                kind=ItemKind.EPISODE,
                text=proof.text,
                score=item.score,
                components=dict(item.components),  # its own: diversification adds to it
                provenance=[proof],
                valid_from=proof.occurred_at,
                found_by=[*item.found_by, f"provenance:{item.id}"],
            )
    return list(seen.values())


def ranking_vectors(run: RecallRun) -> NDArray[np.float32] | None:
    """The ranking's embeddings, one row per item in its order (a zero row for an item deleted since it was ranked:
    it is close to nothing); None when none has one."""
    vectors = run.searcher.item_vectors(kinds(run.ranked))
    if not vectors:
        return None
    dimensions = len(next(iter(vectors.values())))
    matrix = np.zeros((len(run.ranked), dimensions), dtype=np.float32)
    for row, item in enumerate(run.ranked):
        if item.id in vectors:
            matrix[row] = vectors[item.id]
    return matrix
