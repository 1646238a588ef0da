"""Re-embedding a memory space with another embedder (`engram reembed`, docs/embedding.md).

Every vector of the space is computed again, label after label in id order, a page per transaction: propositions,
concepts (their name), intents and prescriptions from their text, then episodes (the normalised mean of the new
vectors of the propositions they prove, as ingest's embed stage makes them; their own text where they prove none).
The space records the target family before the first page (writes are refused and recall says a re-embedding is
under way) and the last node written with each page, in that page's transaction: a run stopped anywhere resumes
after the last page written. At the end the space records the new embedder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import neo4j
import numpy as np
from numpy.typing import NDArray

from engram.embedder_identity import EmbedderIdentity
from graph.cypher import load
from graph.embedder_record import space_embedder
from graph.params import vector_param

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
ProgressFn = Callable[[int], None]  # nodes re-embedded by this page
# Episodes last: their vectors are means of their propositions' new ones.
LABELS = ("Proposition", "Concept", "Intent", "Prescription", "Episode")
PAGE = 256


@dataclass
class ReembedReport:
    resumed_after: str | None  # the cursor this run started from (None: from the start)
    nodes: int  # re-embedded by this run
    finished: bool  # False: stopped at `limit`, run again to go on
    already: bool = False  # the space already held the target family's vectors: nothing done


def _statement(name: str, label: str) -> str:
    if label not in LABELS:
        raise ValueError(f"unknown label {label!r}")
    return load(f"embedder/{name}").replace("{label}", label)


class Reembedder:
    def __init__(self, driver: neo4j.Driver, database: str, space: str, embed: EmbedFn, target: EmbedderIdentity):
        self._driver = driver
        self._database = database
        self._space = space
        self._embed = embed
        self._target = target

    def total(self) -> int:
        """Nodes of the space holding a vector."""
        count = 0
        for label in LABELS:
            records, _, _ = self._driver.execute_query(
                _statement("count_embedded", label), space=self._space, database_=self._database,
                routing_=neo4j.RoutingControl.READ,
            )  # fmt: skip
            count += int(records[0]["n"])
        return count

    def position(self) -> tuple[str | None, int]:
        """Where a run would resume: (cursor, nodes before it); (None, 0) for a fresh start."""
        found = space_embedder(self._driver, self._database, self._space)
        if found.reembed_to != self._target.family or not found.cursor:
            return None, 0
        label = found.cursor.partition(":")[0]
        done = 0
        for earlier in LABELS[: LABELS.index(label)]:
            records, _, _ = self._driver.execute_query(
                _statement("count_embedded", earlier), space=self._space, database_=self._database
            )
            done += int(records[0]["n"])
        return found.cursor, done

    def run(self, progress: ProgressFn | None = None, limit: int | None = None, page: int = PAGE) -> ReembedReport:
        """Re-embed the space (resuming a run stopped before, for the same target); stop after about `limit` nodes."""
        found = space_embedder(self._driver, self._database, self._space)
        if found.reembed_to is None and found.recorded is not None and found.recorded.family == self._target.family:
            return ReembedReport(None, 0, True, already=True)
        cursor = found.cursor if found.reembed_to == self._target.family else None
        if cursor is None:
            self._driver.execute_query(
                load("embedder/start_reembed"), space=self._space, family=self._target.family,
                database_=self._database,
            )  # fmt: skip
        report = ReembedReport(cursor, 0, False)
        start_label, _, after = (cursor or f"{LABELS[0]}:").partition(":")
        for label in LABELS[LABELS.index(start_label) :]:
            while True:
                if limit is not None and report.nodes >= limit:
                    return report
                written = self._page(label, after, page)
                if written is None:
                    break
                after, count = written
                report.nodes += count
                if progress:
                    progress(count)
            after = ""
        self._driver.execute_query(
            load("embedder/finish_reembed"), space=self._space, embedder=self._target.properties(),
            database_=self._database,
        )  # fmt: skip
        report.finished = True
        return report

    def _page(self, label: str, after: str, size: int) -> tuple[str, int] | None:
        """Re-embed the next page of `label` after id `after`; (its last id, nodes) or None when there is none."""
        records, _, _ = self._driver.execute_query(
            _statement("reembed_page", label), space=self._space, after=after, limit=size,
            database_=self._database, routing_=neo4j.RoutingControl.READ,
        )  # fmt: skip
        if not records:
            return None
        rows = [r.data() for r in records]
        own = [r for r in rows if not r["proven"]]
        vectors = dict(zip((r["id"] for r in own), self._embed([r["text"] for r in own]), strict=True)) if own else {}
        for row in rows:
            if row["proven"]:
                mean = np.asarray(row["proven"], np.float32).mean(axis=0)
                vectors[row["id"]] = (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)
        last = rows[-1]["id"]
        self._driver.execute_query(
            _statement("write_vectors", label),
            rows=[{"id": r["id"], "embedding": vector_param(vectors[r["id"]])} for r in rows],
            space=self._space, cursor=f"{label}:{last}", database_=self._database,
        )  # fmt: skip
        return last, len(rows)
