"""The Neo4j `Searcher` (graph/recall/searcher.py): the graph operations recall needs, each one Cypher file under
cypher/recall/, all scoped by space."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

import neo4j

from graph.aggregate.store import Neo4jAggregateReader
from graph.cypher import load
from graph.reads import read, timed
from graph.recall.bm25 import TermStatistics, analysed, analyze, bm25_scores, distinctive_coverage, distinctive_weights
from graph.recall.config_sections import SearchLimits
from graph.recall.hits import ConceptHit, Hit, TimeWindow, WindowHits
from graph.recall.lucene import in_field, in_space, lucene_query, query_terms
from graph.recall.models import ItemKind
from graph.recall.search_statements import (
    DENSE_STATEMENTS,
    EXACT_STATEMENTS,
    FULLTEXT_FIELDS,
    FULLTEXT_STATEMENTS,
    HYDRATE_STATEMENTS,
    RESCORED_MEAN_CHARS,
    SHARED_FULLTEXT_INDEXES,
    SHARED_INDEXES,
    SHARED_VECTOR_INDEXES,
    SpaceSizes,
    concept_hits,
    episode_hit,
    first_fetch,
    hits_of,
    next_fetch,
)
from graph.recall.searcher import Label, TextLabel
from graph.space_indexes import SpaceIndexes


class GraphSearcher:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        space: str,
        as_of: datetime | None,
        sizes: SpaceSizes | None = None,
        own_indexes: bool = True,
        timeout_s: float | None = None,
        space_statistics: bool = True,
        distinctive_share: float = 0.0,
        limits: SearchLimits | None = None,
        scope: dict[str, Any] | None = None,
        known_at: datetime | None = None,
    ) -> None:
        self._driver = driver
        # Properties a proving episode must have equal (engram/scope.py ScopeFilter.properties; empty: none): the
        # hydrate statements keep only what such an episode proves, and seeds come from exact scans filtered alike.
        self._scope = scope or {}
        self._limits = limits or SearchLimits()
        # Whether a small space's full-text hits are scored with its own term statistics (graph/recall/bm25.py).
        self._space_statistics = space_statistics
        # The largest share of the space's documents holding a query term for it to count as distinctive (0: none).
        self._distinctive_share = distinctive_share
        # Label -> the query's distinctive terms in this space (analysed), for the trace.
        self.distinctive: dict[str, list[str]] = {}
        self._timeout_s = timeout_s  # each statement's transaction timeout (None: the server's default)
        # The space's own indexes' names (graph/space_indexes.py); None: the shared indexes even where it has them.
        self._names = SpaceIndexes.of(space) if own_indexes else None
        self._database = database
        self._space = space
        self._as_of = as_of  # world time: what held then (recall/candidate_proposition)
        self._known_at = known_at  # memory time: what memory had recorded by then
        self.queries = 0  # Cypher statements issued, for the trace and the query-count tests
        self._lock = threading.Lock()  # seeding searches run in threads
        self._size_cache = sizes or SpaceSizes(ttl_s=0.0)  # a searcher on its own counts anew
        self._sizes: dict[str, int] | None = None
        self.hydrated: dict[str, dict[str, Any]] = {}  # item rows already fetched during this recall
        # Item embeddings already asked for during this recall (None: the item has none, or is gone).
        self._vectors: dict[str, list[float] | None] = {}
        # The vector of this recall's unfiltered exact episode scan and every episode's {id, speaker, score} it scored.
        self._episode_scores: tuple[list[float], list[dict[str, Any]]] | None = None

    @property
    def space(self) -> str:
        return self._space

    def _record(self, name: str, **params: Any) -> neo4j.Record:
        """The one record a recall statement returns (graph/reads.py's `read`: an auto-commit read, retried on what
        the server marks retryable but for a timeout or the memory cap)."""
        with self._lock:
            self.queries += 1
        query = timed(load(f"recall/{name}"), self._timeout_s)
        records = read(
            self._driver, self._database, f"recall/{name}", query, space=self._space, as_of=self._as_of,
            known_at=self._known_at, scope=self._scope, **params,
        )  # fmt: skip
        if len(records) != 1:
            raise LookupError(f"recall/{name} returned {len(records)} records, not 1")
        return records[0]

    def _rows(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """The rows of a recall statement, which collects them into one record: the Python driver spends ~45 us of
        CPU on every record it receives (docs/tuning.md)."""
        rows: list[dict[str, Any]] = self._record(name, **params)["rows"]
        return rows

    def _overfetched(self, name: str, k: int, **params: Any) -> list[Hit]:
        return self._overfetch(name, k, self._limits.max_fetch, **params)[0]

    def _overfetch(self, name: str, k: int, max_fetch: int, **params: Any) -> tuple[list[Hit], bool]:
        """Shared indexes cannot filter by space: fetch more until k hits of this space come back or the index has
        no more rows to give (a full-text query matching few documents). Returns the hits and whether they are all
        there is to find (False: stopped at `max_fetch` rows). From a space's own index every row is its: k rows
        are asked first (fewer rows is a cheaper HNSW search), more only where merged statements fell together."""
        record, complete = self._overfetch_record(name, k, max_fetch, **params)
        return hits_of(record["rows"], name), complete

    def _overfetch_record(self, name: str, k: int, max_fetch: int, **params: Any) -> tuple[neo4j.Record, bool]:
        """`_overfetch`'s last record (its rows and whatever else the statement returns) and whether it is all."""
        fetch = first_fetch(params["index"], k, min(max(2 * k, 32), max_fetch))
        while True:
            record = self._record(name, fetch=fetch, k=k, **params)
            rows, fetched = record["rows"], int(record["fetched"])
            if len(rows) >= k or fetched < fetch:
                return record, True
            if fetch >= max_fetch:
                return record, False
            fetch = min(next_fetch(fetch, len(rows), k, self._limits.max_fetch), max_fetch)

    def aggregates(self) -> Neo4jAggregateReader:
        """The aggregation path's reads of this space, scope and as-of time (graph/aggregate/store.py)."""
        with self._lock:
            self.queries += 2  # matching and tally
        space, scope = self._space, self._scope
        return Neo4jAggregateReader(
            self._driver, self._database, space, self._as_of, scope, self._timeout_s, known_at=self._known_at
        )

    def load_sizes(self) -> None:
        if self._sizes is None:
            self._sizes = self._size_cache.get(
                self._space, lambda: dict(self._record("space_size", cap_plus_one=self._limits.scoped_fulltext_max + 1))
            )

    def size(self, label: str) -> int:
        self.load_sizes()
        assert self._sizes is not None
        return int(self._sizes[label])

    def dense(self, label: Label, vector: list[float], k: int, speakers: Sequence[str] | None = None) -> list[Hit]:
        """The k nodes of `label` closest to `vector`; `speakers` (episodes only) keeps what they said."""
        said_by = list(speakers) if speakers else None
        statement = EXACT_STATEMENTS[label]
        # A filtered recall scans its filter's items exactly: an index's top rows would be mostly filtered out.
        if label == "episodes" and self.size(label) <= self._limits.exact_scan_max:
            return self._exact_episodes(vector, k, said_by)
        if self._scope or self.size(label) <= self._limits.exact_scan_max:
            # fetch: room for statements merged into others, which resolve to the same current proposition
            return hits_of(self._rows(statement, vector=vector, k=k, fetch=4 * k, speakers=said_by), statement)
        index = self.vector_index(label)
        hits, complete = self._overfetch(
            DENSE_STATEMENTS[label], k, self._limits.max_fetch, index=index, vector=vector, speakers=said_by
        )
        if complete or not self._crowded_out(index, label):
            return hits
        return hits_of(self._rows(statement, vector=vector, k=k, fetch=4 * k, speakers=said_by), statement)

    def _exact_episodes(self, vector: list[float], k: int, speakers: list[str] | None) -> list[Hit]:
        """A small space's episodes closest to `vector`, scanned exactly. The scan of everyone's keeps every episode's
        score; a later search of some `speakers`' episodes with the same vector (the participants step, for the
        asker a question means by "I") takes its k best from those, ordered as the scan orders them (score, then
        id), and reads only their knowledge: the same hits, without reading every embedding again."""
        scored = self._episode_scores
        if speakers is not None and scored is not None and scored[0] == vector:
            theirs = [found for found in scored[1] if found["speaker"] in speakers]
            best = sorted(theirs, key=lambda found: (-found["score"], found["id"]))[:k]
            return self.scored_episodes([(found["id"], found["score"]) for found in best])
        if speakers is not None:
            return hits_of(self._rows("exact_episodes", vector=vector, k=k, speakers=speakers), "exact_episodes")
        record = self._record("exact_episodes_scored", vector=vector, k=k, speakers=None)
        scores: list[dict[str, Any]] = record["scores"]
        if all(found["score"] is not None for found in scores):  # a score Neo4j cannot order as Python does: none kept
            self._episode_scores = (vector, scores)
        return hits_of(record["rows"], "exact_episodes")

    def scored_episodes(self, episodes: Sequence[tuple[str, float]]) -> list[Hit]:
        """Episodes already scored against a vector ((id, score) pairs), as hits with the knowledge they prove."""
        if not episodes:
            return []
        rows = self._rows("scored_episodes", episodes=[{"id": item_id, "score": score} for item_id, score in episodes])
        return hits_of(rows, "scored_episodes")

    def has_pages(self) -> bool:
        """Whether a document of this space is the page of a concept (counted with the space's sizes)."""
        return self.size("pages") > 0

    def _crowded_out(self, index: str, label: str) -> bool:
        """Whether a search of the shared `index` that stopped at `max_fetch` rows with fewer than k of this space's
        hits is to be answered by an exact scan instead: the window was filled by other spaces, and this one is small
        enough to scan."""
        return index in SHARED_INDEXES and self.size(label) <= self._limits.exact_fallback_max

    def _own(self) -> SpaceIndexes | None:
        """The space's own indexes, once it has them."""
        self.load_sizes()
        assert self._sizes is not None
        return self._names if self._sizes["own_indexes"] else None

    def vector_index(self, label: str) -> str:
        """The vector index that serves this space's `label`: its own where it has one (nearly every row is its),
        otherwise the shared one."""
        own = self._own()
        return (own.vector(label) if own else None) or SHARED_VECTOR_INDEXES[label]

    def fulltext_index(self, label: str) -> str:
        """The full-text index that serves this space's `label`, chosen as `vector_index` is."""
        own = self._own()
        return (own.fulltext(label) if own else None) or SHARED_FULLTEXT_INDEXES[label]

    def fulltext(self, label: TextLabel, lucene: str, k: int) -> list[Hit]:
        """Full-text hits of this space. A space with an index of its own is searched there, where every row is its.
        A small space is searched with the query scoped to it inside the shared index (schema 0005): it would be
        crowded out of the index's top rows by larger spaces using the same words. A larger one is searched
        unscoped first: where it holds much of what matches, Lucene's top-k pruning answers in a round or two, where
        the scoped query scores every document of the space that matches (docs/tuning.md); it is scoped only when
        `scope_fulltext_above` rows were not enough."""
        if not lucene:
            return []
        statement, index = FULLTEXT_STATEMENTS[label], self.fulltext_index(label)
        if index != SHARED_FULLTEXT_INDEXES[label]:
            return self._overfetched(statement, k, index=index, lucene=lucene, queries=[])
        field = FULLTEXT_FIELDS.get(label, "text")
        scoped = in_space(lucene, self._space, field)
        if field != "text":
            lucene = in_field(lucene, field)
        if self.size(label) <= self._limits.scoped_fulltext_max:
            if self._space_statistics and label in RESCORED_MEAN_CHARS:
                return self._rescored(label, index, lucene, scoped, k)
            return self._overfetched(statement, k, index=index, lucene=scoped, queries=[])
        above = self._limits.scope_fulltext_above
        hits, complete = self._overfetch(statement, k, above, index=index, lucene=lucene, queries=[])
        return hits if complete else self._overfetched(statement, k, index=index, lucene=scoped, queries=[])

    def _rescored(self, label: TextLabel, index: str, lucene: str, scoped: str, k: int) -> list[Hit]:
        """The k best of a pool of `rescore_pool` x k hits of the `scoped` query (this space's, in the shared `index`)
        by BM25 with the space's own counts: how many of its documents hold each term (counted in the same statement)
        and how many it has."""
        statement, terms = FULLTEXT_STATEMENTS[label], query_terms(lucene)
        queries = [{"term": term, "lucene": in_space(term, self._space)} for term in terms]
        pool_k, max_fetch = self._limits.rescore_pool * k, self._limits.max_fetch
        record, _ = self._overfetch_record(statement, pool_k, max_fetch, index=index, lucene=scoped,
                                           queries=queries)  # fmt: skip
        pool = hits_of(record["rows"], statement)
        if not pool:
            return pool
        holding = {r["term"]: int(r["holding"]) for r in record["holding"]}
        statistics = TermStatistics(self.size(label), holding, float(self.size(RESCORED_MEAN_CHARS[label])))
        texts = analysed([hit.text for hit in pool])  # once, for both the scores and the distinctive words
        scores = bm25_scores(texts, terms, statistics)
        weights = distinctive_weights(terms, statistics, self._distinctive_share)
        coverage = distinctive_coverage(texts, weights)
        with self._lock:
            self.distinctive[label] = sorted(weights)
        rescored = [
            replace(hit, score=round(score, 6), coverage=held)
            for hit, score, held in zip(pool, scores, coverage, strict=True)
        ]
        return sorted(rescored, key=lambda h: (-h.score, h.id))[:k]

    def episode_context(self, anchors: dict[str, int], vector: list[float]) -> list[dict[str, Any]]:
        """Episode id -> rank of the item it proves; returns the neighbouring episodes and their knowledge."""
        if not anchors:
            return []
        rows = [{"id": episode_id, "rank": rank} for episode_id, rank in anchors.items()]
        return self._rows("episode_context", anchors=rows, vector=vector)

    def entity_pages(
        self, items: dict[str, tuple[int, list[str]]], names: Sequence[str], vector: list[float], per_page: int, k: int
    ) -> dict[str, tuple[list[Hit], list[str]]]:
        """The pages the top items name (item id -> (rank, the title keys its words may name); by those keys or a
        concept it mentions) and those the query names (`names`, the best first): for each ("items", "query"), the
        passages of those documents, at most `per_page` each and `k` in all, and the keys that had a page."""
        pages: dict[str, tuple[list[Hit], list[str]]] = {"items": ([], []), "query": ([], [])}
        if not items and not names:
            return pages
        rows = [{"id": item_id, "rank": rank, "names": words} for item_id, (rank, words) in items.items()]
        found = self._rows("page_episodes", items=rows, names=list(names), vector=vector, per_page=per_page, k=k)
        for via, (hits, keys) in pages.items():
            mine = [r for r in found if r["via"] == via]
            hits.extend(episode_hit(r) for r in mine)
            keys.extend(sorted({key for r in mine for key in r["keys"]}))
        return pages

    def episodes_within(self, windows: Sequence[TimeWindow], vector: list[float], k: int) -> WindowHits:
        """The episodes of any of the time windows, at most k: first those holding a statement whose own time falls
        in the days a window names ("last month", told weeks later), then in the days around them, then those told
        within a window; closest to `vector` first."""
        if not windows:
            return WindowHits([], 0)
        spans = [asdict(w) for w in windows]
        stated = self._rows("window_stated_episodes", windows=spans, vector=vector, k=k)
        # Enough told episodes that k remain once those already found by a dated statement are set aside.
        told_k = k + len(stated)
        told: list[Hit] | None = None
        if self.size("episodes") > self._limits.exact_scan_max:
            # Scanning every episode of a month is slow in a large space (docs/tuning.md): the episodes told then come
            # through the vector index, and the exact scan only where it cannot give them.
            index = self.vector_index("episodes")
            found, complete = self._overfetch(
                "window_told_episodes", told_k, self._limits.max_fetch, index=index, windows=spans, vector=vector
            )
            told = found if complete else None
        if told is None:
            told = [episode_hit(r) for r in self._rows("window_episodes", windows=spans, vector=vector, k=told_k)]
        seen = {r["id"] for r in stated}
        hits = [episode_hit(r) for r in stated] + [h for h in told if h.id not in seen]
        return WindowHits(hits[:k], len(stated))

    def unmentioned(self, names: Sequence[str], typos: bool = False) -> list[str]:
        """The `names` that nothing this scope remembers mentions (unmentioned.cypher): in no episode's text, no
        speaker's name. A name of several words ("e-bike") is left out: it counts as mentioned. With `typos`, the text
        is searched for the word within one edit (Lucene's fuzzy term, transpositions counted as one)."""
        index = self.fulltext_index("episodes")
        queries = []
        for name in names:
            word = lucene_query(name, drop=frozenset())
            if not word or " OR " in word or len(analyze(name)) != 1:
                continue
            term = f"{word}~1" if typos else word
            lucene = in_space(term, self._space) if index == SHARED_FULLTEXT_INDEXES["episodes"] else term
            queries.append({"name": name, "word": word, "lucene": lucene})
        if not queries:
            return []
        rows: list[str] = self._record("unmentioned", index=index, queries=queries, fetch=self._limits.max_fetch)[
            "rows"
        ]
        return rows

    def concepts_by_key(self, keys: Sequence[str]) -> list[ConceptHit]:
        if not keys:
            return []
        return concept_hits(self._rows("concepts_by_key", keys=list(keys)))

    def dense_concepts(self, vector: list[float], k: int, min_score: float) -> list[ConceptHit]:
        """The k concepts of this space closest to `vector` with a score of at least `min_score`. A small space is
        scanned exactly, as `dense` scans one: over the shared approximate index its answer depended on other
        spaces' writes (docs/tuning.md)."""
        if self.size("concepts") <= self._limits.exact_scan_max:
            return concept_hits(self._record("exact_concepts", vector=vector, k=k, min_score=min_score)["hits"])
        index = self.vector_index("concepts")
        fetch = first_fetch(index, k, max(8 * k, 64))
        while True:
            record = self._record("dense_concepts", index=index, vector=vector, fetch=fetch, min_score=min_score)
            hits = sorted(record["hits"], key=lambda h: (-float(h["score"]), h["id"]))
            exhausted = int(record["fetched"]) < fetch or record["floor"] is None or record["floor"] < min_score
            if len(hits) >= k or exhausted:
                return concept_hits(hits[:k])
            if fetch >= self._limits.max_fetch:
                if not self._crowded_out(index, "concepts"):
                    return concept_hits(hits[:k])
                return concept_hits(self._record("exact_concepts", vector=vector, k=k, min_score=min_score)["hits"])
            fetch = next_fetch(fetch, len(hits), k, self._limits.max_fetch)

    def propagate(self, seeds: Sequence[ConceptHit], fanout: int) -> list[tuple[str, ConceptHit, float]]:
        if not seeds:
            return []
        rows = self._rows("propagate", seeds=[{"id": s.id} for s in seeds], fanout=fanout)
        return [
            (r["seed"], ConceptHit(r["id"], r["key"], float(r["idf"]), int(r["df"])), float(r["weight"] or 0.0))
            for r in rows
        ]

    def expand(self, activations: dict[str, float], vector: list[float], per_concept: int) -> list[dict[str, Any]]:
        if not activations:
            return []
        concepts = [{"id": cid, "activation": a} for cid, a in activations.items()]
        return self._rows("expand_concepts", concepts=concepts, vector=vector, per_concept=per_concept)

    def hydrate(
        self, label: TextLabel, items: Sequence[tuple[str, float | None]], vector: list[float]
    ) -> list[dict[str, Any]]:
        """Rows for ranking (text, times, scores, provenance) of (id, similarity to the query if known) pairs."""
        if not items:
            return []
        rows = [{"id": item_id, "similarity": similarity} for item_id, similarity in items]
        return self._rows(HYDRATE_STATEMENTS[label], items=rows, vector=vector)

    def top_items(self, ids: Sequence[str], head: Sequence[tuple[str, ItemKind]]) -> list[ConceptHit]:
        """The concepts the propositions `ids` mention; fetches alongside, in the same statement, the embeddings of
        the `head` items ((id, kind) pairs) not fetched before in this recall (`item_vectors` hands them out)."""
        wanted: dict[ItemKind, list[str]] = {kind: [] for kind in ItemKind}
        for item_id, kind in head:
            if item_id not in self._vectors:
                wanted[kind].append(item_id)
        if not ids and not any(wanted.values()):
            return []
        record = self._record(
            "top_items",
            ids=list(ids),
            propositions=wanted[ItemKind.PROPOSITION],
            prescriptions=wanted[ItemKind.PRESCRIPTION],
            episodes=wanted[ItemKind.EPISODE],
        )
        found = {row["id"]: row["vector"] for row in record["vectors"]}
        for kind_ids in wanted.values():
            self._vectors.update((item_id, found.get(item_id)) for item_id in kind_ids)
        return concept_hits(record["concepts"])

    def item_vectors(self, items: Sequence[tuple[str, ItemKind]]) -> dict[str, list[float]]:
        """Embeddings of (id, kind) pairs; those not fetched yet by `top_items` are fetched now. An item deleted
        since it was ranked is missing."""
        self.top_items([], items)
        return {item_id: vector for item_id, _ in items if (vector := self._vectors.get(item_id)) is not None}

    def earlier_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        return self._rows("earlier_versions", ids=list(ids)) if ids else []

    def current_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        return self._rows("current_versions", ids=list(ids)) if ids else []

    def subject_facts(self, subject: str, vector: list[float]) -> list[dict[str, Any]]:
        return self._rows("subject_facts", subject=subject.casefold(), vector=vector) if subject else []
