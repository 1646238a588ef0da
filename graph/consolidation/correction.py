"""User corrections: `correct(space, proposition_id, new_text, embed=...)` supersedes a proposition by a statement
the user gives. The new proposition gets the deterministic id ingestion would give the same text (so a later
ingest of that statement meets it), the old one stays as history (superseded, `valid_to`, `expired_at`), the new
one `SUPERSEDES` it, inherits its concepts and is proven by the correction itself: an episode of the space's
`correction` source with the corrected statement (and the reason, when given). Correcting twice with the same text
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import neo4j
import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from engram.extraction.keyphrases import extract_keyphrases, normalize_key
from engram.ids import normalize_text, stable_id
from engram.settings import get_settings
from graph.cypher import load
from graph.driver import get_driver
from graph.memory_writer import refresh_concepts
from graph.params import vector_param
from graph.space_indexes import label_written

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
MAX_TEXT = 20_000


class CorrectionError(Exception):
    """A correction that cannot be applied; the message says why."""


class UnknownProposition(CorrectionError, LookupError):
    """No proposition with this id in this space (ids of other spaces are not visible)."""

    def __init__(self, space: str, proposition_id: str) -> None:
        super().__init__(f"no proposition {proposition_id!r} in space {space!r}")
        self.space = space
        self.proposition_id = proposition_id


class PropositionNotCurrent(CorrectionError):
    """The proposition was already superseded by another one: correct the current one instead."""

    def __init__(self, proposition_id: str, current_id: str | None) -> None:
        super().__init__(
            f"proposition {proposition_id!r} is superseded"
            + (f" by {current_id!r}: correct that one instead" if current_id else "")
        )
        self.proposition_id = proposition_id
        self.current_id = current_id


class InvalidCorrection(CorrectionError, ValueError):
    """Empty, too long, or the same statement as the one it would correct."""


class CorrectionCycle(InvalidCorrection):
    """The corrected statement is one the proposition already replaced: making it current again would make the
    history a cycle (A supersedes B supersedes A), which no lineage could be read from."""

    def __init__(self, proposition_id: str, earlier_id: str) -> None:
        super().__init__(
            f"the corrected statement is {earlier_id!r}, which {proposition_id!r} already replaced: a correction "
            "cannot bring back a statement from the history of the one it corrects; word it differently"
        )
        self.proposition_id = proposition_id
        self.earlier_id = earlier_id


class CorrectionResult(BaseModel):
    space: str
    proposition_id: str  # the current proposition now
    supersedes: str  # the corrected one
    text: str
    provenance: list[str]  # ids of the episodes that prove it (inherited from the corrected one)
    concepts: list[str]  # concept keys it mentions
    created: bool  # False when this exact correction had already been applied


def correct(
    space: str,
    proposition_id: str,
    new_text: str,
    *,
    embed: EmbedFn,
    driver: neo4j.Driver | None = None,
    database: str | None = None,
    subject: str | None = None,
    predicate: str | None = None,
    object: str | None = None,
    valid_from: datetime | None = None,
    reason: str = "",
) -> CorrectionResult:
    """Supersede `proposition_id` by `new_text`. Raises UnknownProposition, PropositionNotCurrent or
    InvalidCorrection (CorrectionCycle when `new_text` is a statement `proposition_id` already replaced)."""
    driver = driver or get_driver()
    database = database or get_settings().neo4j.database
    text = " ".join(new_text.split())
    if not text or len(text) > MAX_TEXT:
        raise InvalidCorrection(f"the corrected statement must have 1 to {MAX_TEXT} characters")
    records, _, _ = driver.execute_query(
        load("consolidate/proposition_for_correction"), space=space, id=proposition_id, database_=database
    )
    if not records:
        raise UnknownProposition(space, proposition_id)
    old: dict[str, Any] = records[0].data()
    new_id = stable_id("prop", space, normalize_text(text))
    if new_id == proposition_id:
        raise InvalidCorrection("the corrected statement says the same as the proposition it would correct")
    if old["status"] != "active":
        if old["superseded_by"] == new_id:
            return _result(driver, database, space, new_id, proposition_id, created=False)
        raise PropositionNotCurrent(proposition_id, old["current_id"])
    keys = sorted({normalize_key(p.display) for p in extract_keyphrases(text, limit=8)} - {""})
    row: dict[str, Any] = {
        "old_id": proposition_id,
        "new_id": new_id,
        "text": text,
        "subject": old["subject"] if subject is None else subject,
        "predicate": old["predicate"] if predicate is None else predicate,
        "object": object or "",
        "valid_from": valid_from,
        "embedding": vector_param(embed([text])[0]),
        "reason": reason,
        "keys": keys,
        "source_id": stable_id("src", space, "correction"),
        "episode_id": stable_id("ep", space, "correction", proposition_id, new_id),
        # The app's name for it in provenance: which statement it corrected (no id of the app's exists for it).
        "episode_external_id": f"correction/{proposition_id}",
        "episode_text": f"{text} (correction: {reason})" if reason else text,
    }
    with driver.session(database=database) as session:
        written = session.execute_write(lambda tx: _write_correction(tx, space, row))
    if written is None:  # superseded by a concurrent run between the read and the write
        raise PropositionNotCurrent(proposition_id, None)
    refresh_concepts(driver, database, space, sorted(set(old["concept_ids"]) | set(written["concept_ids"])))
    return _result(driver, database, space, new_id, proposition_id, created=True)


def _write_correction(tx: neo4j.ManagedTransaction, space: str, row: dict[str, Any]) -> neo4j.Record | None:
    cycle = tx.run(load("consolidate/correction_cycle"), space=space, old_id=row["old_id"], new_id=row["new_id"])
    if (found := cycle.single()) is not None and found["cycle"]:
        raise CorrectionCycle(row["old_id"], row["new_id"])
    written = tx.run(load("consolidate/correct_proposition"), space=space, **row).single()
    if written is not None:  # the correction joins the space's own indexes, if it has them
        label_written(tx, space, propositions=[row["new_id"]], episodes=[row["episode_id"]])
    return written


def _result(
    driver: neo4j.Driver, database: str, space: str, new_id: str, old_id: str, created: bool
) -> CorrectionResult:
    records, _, _ = driver.execute_query(
        load("consolidate/proposition_for_correction"), space=space, id=new_id, database_=database
    )
    row = records[0].data()
    return CorrectionResult(
        space=space,
        proposition_id=new_id,
        supersedes=old_id,
        text=row["text"],
        provenance=row["provenance"],
        concepts=row["concept_keys"],
        created=created,
    )
